"use client";
// Try it for an SSE mock: opens the stream with Accept: text/event-stream and
// lists each event (name and data) as it arrives, until the stream ends or Stop.
import { Radio, Square } from "lucide-react";
import { useRef, useState } from "react";
import { errorMessage } from "@/components/lib/api-error";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";

interface StreamEvent {
  name: string;
  data: string;
}

/** Splits SSE text into events; `rest` is an unfinished event still waiting for its blank line. */
function parseEvents(text: string): { events: StreamEvent[]; rest: string } {
  const blocks = text.replace(/\r\n?/g, "\n").split("\n\n");
  const rest = blocks.pop() ?? "";
  const events = blocks.flatMap((b) => {
    let name = "message";
    const data: string[] = [];
    for (const line of b.split("\n")) {
      if (line.startsWith(":")) continue;
      const at = line.indexOf(":");
      const field = at === -1 ? line : line.slice(0, at);
      const value = at === -1 ? "" : line.slice(at + 1).replace(/^ /, "");
      if (field === "event") name = value;
      else if (field === "data") data.push(value);
    }
    return data.length || name !== "message" ? [{ name, data: data.join("\n") }] : [];
  });
  return { events, rest };
}

export function SseStream({ url }: { url: string }) {
  const [events, setEvents] = useState<StreamEvent[]>([]);
  const [state, setState] = useState<"idle" | "open" | "ended">("idle");
  const [status, setStatus] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  async function open() {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setEvents([]);
    setProblem(null);
    setState("open");
    try {
      const res = await fetch(url, { headers: { Accept: "text/event-stream" }, credentials: "omit", signal: controller.signal });
      setStatus(res.status);
      if (!res.ok || !res.body) {
        setProblem(`${res.status} ${res.statusText}: ${(await res.text()).slice(0, 2000)}`);
        return;
      }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const parsed = parseEvents(buffer + value);
        buffer = parsed.rest;
        if (parsed.events.length) setEvents((e) => [...e, ...parsed.events]);
      }
    } catch (err) {
      if (!controller.signal.aborted) setProblem(errorMessage(err));
    } finally {
      if (abort.current === controller) setState("ended");
    }
  }

  return (
    <section aria-label="Event stream" className="flex flex-col gap-3 rounded-xl border bg-card p-5">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">Event stream</h3>
        {status !== null ? <Badge variant={status < 400 ? "success" : "destructive"}>{status}</Badge> : null}
        <span role="status" className="text-xs text-muted-foreground">
          {state === "open" ? "Receiving…" : state === "ended" ? `Stream ended: ${events.length} event${events.length === 1 ? "" : "s"}` : "Not connected"}
        </span>
        <div className="ml-auto flex gap-2">
          {state === "open" ? (
            <Button variant="outline" size="sm" onClick={() => abort.current?.abort()}>
              <Square aria-hidden /> Stop
            </Button>
          ) : null}
          <Button size="sm" onClick={() => void open()}>
            <Radio aria-hidden /> Open stream
          </Button>
        </div>
      </div>
      {problem ? <Alert variant="error" title="The stream could not be read">{problem}</Alert> : null}
      <ol aria-label="Received events" className="flex flex-col gap-1 font-mono text-xs">
        {events.map((e, i) => (
          <li key={i} className="grid grid-cols-[8rem_1fr] gap-2 rounded-md bg-muted px-2 py-1">
            <span className="truncate font-semibold">{e.name}</span>
            <span className="break-all whitespace-pre-wrap">{e.data}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
