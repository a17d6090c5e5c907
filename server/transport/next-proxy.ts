// Hands every request that is not stub traffic (UI pages, /api/v1, /api/trpc,
// /health, /metrics, /swagger) to the Next.js process behind server.ts, over a
// Unix socket. Bodies stream both ways, so server-sent events (/api/v1/events,
// /mcp/sse) and uploads pass through without being buffered.
import http from "node:http";
import { logger } from "@/server/lib/logger";
import { allowFrom, apiRewriteFor, type ApiRewrite } from "./api-error-answers";
import { sendEnvelope } from "./wire-envelope";

// Hop-by-hop headers belong to one connection, not to the message (RFC 9110 §7.6.1),
// and so does every header the Connection field names (HTTP2-Settings of an h2c offer);
// `expect` is answered by this server's own 100 Continue.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "http2-settings", "expect", "proxy-authorization", "proxy-authenticate"]);

/**
 * A request body the Next.js process answered without reading (a 401, 400 or
 * 413 before the body) is read here and thrown away, so that the client's next
 * request on the same connection is parsed; a client that sends more than this
 * after the answer has its connection cut instead. (docs/decisions.md, "Errors and limits")
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

export function forwardableRequestHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const named = headers.connection ? headers.connection.toLowerCase().split(",").map((t) => t.trim()) : [];
  const out: http.OutgoingHttpHeaders = {};
  for (const k in headers) if (!HOP_BY_HOP.has(k) && !named.includes(k)) out[k] = headers[k];
  return out;
}

function forwardableResponseHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  return out;
}

/** Stops feeding the upstream and discards the rest of the client's body, up to DRAIN_LIMIT_BYTES. */
function abandonBody(req: http.IncomingMessage, upstream: http.ClientRequest, answer: http.IncomingMessage) {
  req.unpipe(upstream);
  let drained = 0;
  req.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) req.socket.destroy();
  });
  req.resume();
  // This upstream request can never end now; its connection goes once the answer has been read.
  answer.once("close", () => upstream.destroy());
}

export interface NextProxy {
  forward(req: http.IncomingMessage, res: http.ServerResponse, requestId: string): void;
  close(): void;
}

export function createNextProxy(socketPath: string): NextProxy {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const unavailable = (res: http.ServerResponse, requestId: string, err: Error) => {
    logger().error({ err, requestId }, "the Next.js process did not answer");
    if (!res.headersSent) {
      sendEnvelope(res, { status: 502, code: "unavailable", error: "The web application is not available; try again in a moment", requestId });
    } else res.destroy();
  };

  /** The methods the route file at `path` exports, from Next.js's automatic OPTIONS answer. */
  const allowedMethods = (req: http.IncomingMessage, requestId: string) =>
    new Promise<string>((resolve) => {
      const headers = { host: req.headers.host ?? "localhost", "x-request-id": requestId };
      const ask = http.request({ socketPath, agent, method: "OPTIONS", path: req.url, headers }, (a) => {
        a.resume();
        resolve(a.statusCode === 204 || a.statusCode === 200 ? allowFrom(a.headers.allow) : "");
      });
      ask.on("error", () => resolve(""));
      ask.end();
    });

  const answerInEnvelope = async (rewrite: Exclude<ApiRewrite, null>, req: http.IncomingMessage, res: http.ServerResponse, requestId: string) => {
    const method = req.method ?? "GET";
    const pathname = (req.url ?? "/").split("?", 1)[0];
    if (rewrite === "not_found") {
      return sendEnvelope(res, { status: 404, code: "not_found", error: `No endpoint at ${method} ${pathname}`, requestId }, method);
    }
    const allow = await allowedMethods(req, requestId);
    if (res.destroyed) return;
    sendEnvelope(
      res,
      {
        status: 405,
        code: "method_not_allowed",
        error: `${method} is not allowed on ${pathname}${allow ? `; allowed: ${allow}` : ""}`,
        requestId,
        details: { allow: allow ? allow.split(", ") : [] },
        headers: allow ? { Allow: allow } : {},
      },
      method,
    );
  };

  return {
    forward(req, res, requestId) {
      let answered = false;
      const upstream = http.request({ socketPath, agent, method: req.method, path: req.url, headers: forwardableRequestHeaders(req.headers) }, (answer) => {
        answered = true;
        if (!req.complete) abandonBody(req, upstream, answer);
        const rewrite = apiRewriteFor((req.url ?? "/").split("?", 1)[0], answer.statusCode ?? 502, answer.headers["content-type"]);
        if (rewrite) {
          answer.resume();
          void answerInEnvelope(rewrite, req, res, requestId);
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardableResponseHeaders(answer.rawHeaders));
        // Server-sent events must reach the browser as they are written.
        if (String(answer.headers["content-type"] ?? "").startsWith("text/event-stream")) res.flushHeaders();
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      });
      let clientGone = false;
      upstream.on("error", (err) => {
        // After the answer began, an error is the abandoned upstream request being torn down.
        if (!clientGone && !answered) unavailable(res, requestId, err);
      });
      // A client that goes away (a closed event stream, an aborted upload) ends the upstream request too.
      res.on("close", () => {
        if (res.writableFinished) return;
        clientGone = true;
        upstream.destroy();
      });
      req.pipe(upstream);
    },
    close() {
      agent.destroy();
    },
  };
}
