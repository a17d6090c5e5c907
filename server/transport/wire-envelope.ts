// The error envelope ({error, code, request_id}) written straight onto node:http
// objects, for answers the stub front gives before any handler runs (bad
// request lines, oversized headers, malformed paths, 404/405 of the API).
import { STATUS_CODES, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

export interface WireError {
  status: number;
  code: string;
  error: string;
  requestId: string;
  details?: unknown;
  headers?: Record<string, string>;
}

function bodyOf(e: WireError): string {
  return JSON.stringify({ error: e.error, code: e.code, request_id: e.requestId, ...(e.details === undefined ? {} : { details: e.details }) });
}

/** On a ServerResponse: keep-alive is node's business (an unread request body is drained by node). */
export function sendEnvelope(res: ServerResponse, e: WireError, method = "GET"): void {
  const text = bodyOf(e);
  res.writeHead(e.status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    "X-Request-Id": e.requestId,
    "Cache-Control": "no-store",
    ...e.headers,
  });
  res.end(method === "HEAD" ? undefined : text);
}

/** On a bare socket whose HTTP parser has given up: the connection ends with the answer. */
export function writeEnvelopeAndClose(socket: Duplex, e: WireError): void {
  const text = bodyOf(e);
  const extra = Object.entries(e.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  socket.once("finish", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? "Error"}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nX-Request-Id: ${e.requestId}\r\n${extra}Connection: close\r\n\r\n${text}`,
  );
}
