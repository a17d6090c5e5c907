// The node:http server behind PORT: stub traffic is served here, WebSocket
// handshakes go to ws-stub, everything else is proxied to the Next.js process.
// Plain stub requests are taken before node:http by lean-stub-wire.ts, which
// hands node:http any connection with a request it does not serve itself.
// Also the wire-level answers no handler can give: a request line or headers
// node's parser refuses (400, 431) and a path whose percent-encoding does not
// decode (400), each in the error envelope. server.ts starts it; the tests
// build it the same way.
import http from "node:http";
import type { Duplex } from "node:stream";
import { isRequestId, newRequestId, PEER_HEADER } from "@/server/http/request-meta";
import { handleStubRequest, isStubPath, stubFailed } from "./http-stub";
import { serveStubsLean } from "./lean-stub-wire";
import type { NextProxy } from "./next-proxy";
import { sendEnvelope, writeEnvelopeAndClose } from "./wire-envelope";
import { websocketOnlyUpgrades } from "./websocket-only-upgrade";
import { handleStubUpgrade } from "./ws-stub";

function requestIdOf(req: http.IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  const requestId = typeof incoming === "string" && isRequestId(incoming) ? incoming : newRequestId();
  req.headers["x-request-id"] = requestId;
  return requestId;
}

// No closures per request here: this is the hot path.
function serveStub(req: http.IncomingMessage, res: http.ServerResponse) {
  const started = performance.now();
  const requestId = requestIdOf(req);
  try {
    const pending = handleStubRequest(req, res, requestId, started);
    if (pending) pending.catch((err) => stubFailed(err, res, requestId));
  } catch (err) {
    stubFailed(err, res, requestId);
  }
}

/** The first path segment that is not valid percent-encoded UTF-8, if any. */
export function undecodableSegment(pathname: string): string | undefined {
  if (!pathname.includes("%")) return undefined;
  for (const segment of pathname.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }
  return undefined;
}

/** node's parser gave up on the request (bad request line, headers over maxHeaderSize, timeout). */
function onClientError(err: NodeJS.ErrnoException, socket: Duplex) {
  const pending = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
  if (err.code === "ECONNRESET" || !socket.writable || (pending && pending.headersSent)) return socket.destroy();
  const requestId = newRequestId();
  if (err.code === "HPE_HEADER_OVERFLOW") {
    return writeEnvelopeAndClose(socket, { status: 431, code: "headers_too_large", error: `Request headers are larger than the limit of ${http.maxHeaderSize} bytes`, requestId });
  }
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return writeEnvelopeAndClose(socket, { status: 408, code: "request_timeout", error: "The request was not received in time", requestId });
  }
  writeEnvelopeAndClose(socket, { status: 400, code: "validation", error: `Malformed HTTP request: ${err.message}`, requestId, details: { reason: err.code ?? "parse_error" } });
}

export function createFrontServer(toNext: NextProxy): http.Server {
  const server = http.createServer(websocketOnlyUpgrades, (req, res) => {
    const url = req.url ?? "/";
    const pathname = url.split("?", 1)[0];
    if (url.startsWith("/stubs") && isStubPath(pathname)) return serveStub(req, res);
    const requestId = requestIdOf(req);
    // Only this process sees the client's socket; a client-sent value is overwritten.
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "unknown";
    const bad = undecodableSegment(pathname);
    if (bad !== undefined) {
      return sendEnvelope(
        res,
        { status: 400, code: "validation", error: `Malformed percent-encoding in the path: '${bad}'`, requestId, details: [{ location: "path", field: bad, message: "not valid percent-encoded UTF-8" }] },
        req.method,
      );
    }
    toNext.forward(req, res, requestId);
  });
  // Only WebSocket handshakes reach this (websocketOnlyUpgrades); an h2c offer is served above as HTTP/1.1.
  server.on("upgrade", handleStubUpgrade);
  server.on("clientError", onClientError);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Plain stub requests skip node:http's request and response objects; anything else is node's as before.
  serveStubsLean(server);
  return server;
}
