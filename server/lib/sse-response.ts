// A server-sent-events Response fed by an async producer: each `send(event,
// data)` is one event; the stream closes when the producer settles. A
// producer's failure becomes a final `error` event (the status line has long
// been sent). Comments keep proxies from closing a quiet stream.
const PING_MS = 15_000;

export type SseSend = (event: string, data: unknown) => void;

export function sseResponse(produce: (send: SseSend) => Promise<void>, errorData: (err: unknown) => unknown): Response {
  const encoder = new TextEncoder();
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const write = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          open = false;
        }
      };
      const send: SseSend = (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      write(": connected\n\n");
      const ping = setInterval(() => write(": ping\n\n"), PING_MS);
      produce(send)
        .catch((err) => send("error", errorData(err)))
        .finally(() => {
          clearInterval(ping);
          if (open) {
            open = false;
            try {
              controller.close();
            } catch {}
          }
        });
    },
    cancel() {
      // The client left; the producer goes on (a run is stored and can be cancelled explicitly).
      open = false;
    },
  });
  return new Response(stream, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-store", Connection: "keep-alive", "X-Accel-Buffering": "no" } });
}
