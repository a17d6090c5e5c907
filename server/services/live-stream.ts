// One namespace's live events as a server-sent-events response.
import { subscribeLive } from "./live-events";

const PING_MS = 15_000;

export function liveEventStream(namespaceId: string, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      send(": connected\n\n");
      const unsubscribe = subscribeLive((e) => {
        if (e.namespaceId !== namespaceId) return;
        const { namespaceId: _id, type, ...data } = e;
        send(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
      });
      const ping = setInterval(() => send(": ping\n\n"), PING_MS);
      cleanup = () => {
        clearInterval(ping);
        unsubscribe();
        try {
          controller.close();
        } catch {}
      };
      signal.addEventListener("abort", () => cleanup());
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-store", Connection: "keep-alive", "X-Accel-Buffering": "no" } });
}
