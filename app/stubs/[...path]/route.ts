// The same stub serving as server.ts's fast path, for `next dev` and hosts that
// can only run `next start` (about 35x slower; see ARCHITECTURE.md).
import { requestIdFrom } from "@/server/http/request-meta";
import { stubBodyLimit } from "@/server/transport/stub-body";
import { serveStub, type StubOutput } from "@/server/transport/stub-core";

export const dynamic = "force-dynamic";

async function handler(req: Request): Promise<Response> {
  const requestId = requestIdFrom(req.headers);
  const buffer = await req.arrayBuffer();
  if (buffer.byteLength > stubBodyLimit()) {
    return Response.json({ error: `Request body is larger than the stub limit of ${stubBodyLimit()} bytes`, code: "payload_too_large", request_id: requestId }, { status: 413 });
  }
  const headers: Record<string, string[]> = {};
  req.headers.forEach((value, name) => (headers[name] = [value]));
  const url = new URL(req.url);
  const out = await serveStub({ method: req.method, url: url.pathname + url.search, headers, rawBody: Buffer.from(buffer), requestId });
  if (out.delayMs > 0) await new Promise((r) => setTimeout(r, out.delayMs));
  if (out.stream) return streamed(req, out);
  const h = new Headers();
  for (const [name, value] of Object.entries(out.headers)) for (const v of Array.isArray(value) ? value : [value]) h.append(name, v);
  // Proxied answers are bytes; a copy into a plain ArrayBuffer is what the fetch Response types accept.
  const body = typeof out.body === "string" ? out.body : new Uint8Array(out.body);
  // 204 and 304 must have a null body: the Response constructor throws otherwise (S3 and MCP DELETE answer 204).
  const bodiless = out.status === 204 || out.status === 304;
  const response = new Response(req.method === "HEAD" || bodiless ? null : body, { status: out.status, headers: h });
  // A route handler cannot see when Next writes the response, so webhooks start as it is
  // handed over; their delivery is asynchronous (lookup, connect, optional delay).
  out.afterSend?.();
  return response;
}

/** A streamed answer (SSE) as a ReadableStream; a client that goes away aborts the request's signal. */
function streamed(req: Request, out: StubOutput): Response {
  const encoder = new TextEncoder();
  let closed = false;
  const gone = new Promise<void>((resolve) => req.signal.addEventListener("abort", () => resolve(), { once: true }));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      gone.then(() => (closed = true));
      try {
        await out.stream!({
          write: (chunk) => {
            if (!closed) controller.enqueue(encoder.encode(chunk));
          },
          get closed() {
            return closed;
          },
          gone,
        });
      } finally {
        closed = true;
        try {
          controller.close();
        } catch {}
        out.afterSend?.();
      }
    },
    cancel() {
      closed = true;
    },
  });
  const h = new Headers();
  for (const [name, value] of Object.entries(out.headers)) for (const v of Array.isArray(value) ? value : [value]) h.append(name, v);
  return new Response(body, { status: out.status, headers: h });
}

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as HEAD, handler as OPTIONS };
