// The node:http fast path for stub traffic (/stubs/<namespace>/<path>). No
// mocks exist yet (the engine comes next), so every stub call is an unmatched
// request: 404 in the error envelope, code not_found.
import type { IncomingMessage, ServerResponse } from "node:http";

export function isStubPath(pathname: string): boolean {
  return pathname === "/stubs" || pathname.startsWith("/stubs/");
}

export function handleStubRequest(req: IncomingMessage, res: ServerResponse, requestId: string) {
  const url = new URL(req.url ?? "/", "http://stub");
  const [, , namespace = "", ...rest] = url.pathname.split("/");
  const body = JSON.stringify({
    error: `No mock matches ${req.method} /${rest.join("/")} in namespace '${decodeURIComponent(namespace) || "(none)"}'`,
    code: "not_found",
    request_id: requestId,
    details: { namespace: decodeURIComponent(namespace), method: req.method, path: `/${rest.join("/")}`, nearest: [] },
  });
  // Drain the request body so keep-alive connections stay usable.
  req.resume();
  res.writeHead(404, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), "X-Request-Id": requestId });
  res.end(body);
}
