// The node:http fast path for stub traffic: /stubs/<namespace>/<path>.
import type { IncomingMessage, ServerResponse } from "node:http";
import { serveStub } from "./stub-core";
import { readStubBody, StubBodyTooLarge } from "./stub-body";
import type { StubOutput } from "./stub-context";

export function isStubPath(pathname: string): boolean {
  return pathname === "/stubs" || pathname.startsWith("/stubs/");
}

function listsOf(headers: IncomingMessage["headers"]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined) out[k] = typeof v === "string" ? [v] : v;
  }
  return out;
}

export async function handleStubRequest(req: IncomingMessage, res: ServerResponse, requestId: string) {
  let rawBody: Buffer;
  try {
    rawBody = await readStubBody(req);
  } catch (err) {
    const tooLarge = err instanceof StubBodyTooLarge;
    const text = JSON.stringify({ error: tooLarge ? err.message : "Could not read the request body", code: tooLarge ? "payload_too_large" : "validation", request_id: requestId });
    res.writeHead(tooLarge ? 413 : 400, { "Content-Type": "application/json", "X-Request-Id": requestId, Connection: "close" });
    res.end(text);
    return;
  }
  const out = await serveStub({ method: req.method ?? "GET", url: req.url ?? "/", headers: listsOf(req.headers), rawBody, requestId });
  if (out.delayMs > 0) await new Promise((r) => setTimeout(r, out.delayMs));
  if (out.stream) return streamOut(res, out);
  // A proxied HEAD answer carries the upstream's Content-Length for a body it does not send; keep it.
  const keepLength = req.method === "HEAD" && Object.keys(out.headers).some((h) => h.toLowerCase() === "content-length");
  // 204 and 304 carry neither a body nor a Content-Length (RFC 9110).
  const bodiless = out.status === 204 || out.status === 304 || (out.status >= 100 && out.status < 200);
  if (!keepLength && !bodiless) out.headers["Content-Length"] = String(typeof out.body === "string" ? Buffer.byteLength(out.body) : out.body.length);
  const { afterSend } = out;
  // Webhooks start once the response has left ('finish'), or when the client went away first ('close').
  if (afterSend) {
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      afterSend();
    };
    res.once("finish", start);
    res.once("close", start);
  }
  res.writeHead(out.status, out.headers);
  res.end(req.method === "HEAD" || bodiless ? undefined : out.body);
}

async function streamOut(res: ServerResponse, out: StubOutput) {
  let closed = false;
  const gone = new Promise<void>((resolve) =>
    res.once("close", () => {
      closed = true;
      resolve();
    }),
  );
  res.writeHead(out.status, out.headers);
  res.flushHeaders();
  try {
    await out.stream!({
      write: (chunk) => {
        if (!closed) res.write(chunk);
      },
      get closed() {
        return closed;
      },
      gone,
    });
  } finally {
    if (!closed) res.end();
    out.afterSend?.();
  }
}
