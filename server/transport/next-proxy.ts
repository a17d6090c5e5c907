// Hands every request that is not stub traffic (UI pages, /api/v1, /api/trpc,
// /health, /metrics, /swagger) to the Next.js process behind server.ts, over a
// Unix socket. Bodies stream both ways, so server-sent events (/api/v1/events,
// /mcp/sse) and uploads pass through without being buffered.
import http from "node:http";
import { logger } from "@/server/lib/logger";

// Hop-by-hop headers belong to one connection, not to the message (RFC 9110 §7.6.1);
// `expect` is answered by this server's own 100 Continue.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "expect", "proxy-authorization", "proxy-authenticate"]);

function forwardableRequestHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const k in headers) if (!HOP_BY_HOP.has(k)) out[k] = headers[k];
  return out;
}

function forwardableResponseHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  return out;
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
      res.writeHead(502, { "Content-Type": "application/json", "X-Request-Id": requestId });
      res.end(JSON.stringify({ error: "The web application is not available; try again in a moment", code: "unavailable", request_id: requestId }));
    } else res.destroy();
  };
  return {
    forward(req, res, requestId) {
      const upstream = http.request({ socketPath, agent, method: req.method, path: req.url, headers: forwardableRequestHeaders(req.headers) }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardableResponseHeaders(answer.rawHeaders));
        // Server-sent events must reach the browser as they are written.
        if (String(answer.headers["content-type"] ?? "").startsWith("text/event-stream")) res.flushHeaders();
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      });
      let clientGone = false;
      upstream.on("error", (err) => {
        if (!clientGone) unavailable(res, requestId, err);
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
