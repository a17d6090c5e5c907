"use client";
// Try it for a WebSocket mock: a small client that connects to the mock's
// server name under /stubs/<namespace>, sends messages and shows both directions.
import { Plug, PlugZap, Send } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CodeEditor } from "@/components/code/code-editor";

interface Line {
  dir: "sent" | "received" | "info";
  text: string;
}

export function SocketClient({ path, initialMessage }: { path: string; initialMessage: string }) {
  const socket = useRef<WebSocket | null>(null);
  const [state, setState] = useState<"closed" | "connecting" | "open">("closed");
  const [lines, setLines] = useState<Line[]>([]);
  const [message, setMessage] = useState(initialMessage);
  const add = (line: Line) => setLines((l) => [...l.slice(-199), line]);
  useEffect(() => () => socket.current?.close(), []);

  function connect() {
    socket.current?.close();
    const url = `${window.location.protocol === "https:" ? "wss:" : "ws:"}//${window.location.host}${path}`;
    const ws = new WebSocket(url);
    socket.current = ws;
    setState("connecting");
    ws.onopen = () => (setState("open"), add({ dir: "info", text: `Connected to ${url}` }));
    ws.onmessage = (e) => add({ dir: "received", text: typeof e.data === "string" ? e.data : "[binary message]" });
    ws.onclose = (e) => {
      if (socket.current !== ws) return;
      setState("closed");
      add({ dir: "info", text: `Closed (${e.code}${e.reason ? `: ${e.reason}` : ""})` });
    };
  }

  return (
    <section aria-label="WebSocket client" className="flex flex-col gap-3 rounded-xl border bg-card p-5">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">WebSocket client</h3>
        <code className="font-mono text-xs text-muted-foreground">{path}</code>
        <Badge variant={state === "open" ? "success" : "secondary"}>{state === "open" ? "Connected" : state === "connecting" ? "Connecting" : "Not connected"}</Badge>
        <div className="ml-auto">
          {state === "closed" ? (
            <Button size="sm" onClick={connect}>
              <PlugZap aria-hidden /> Connect
            </Button>
          ) : (
            <Button size="sm" variant="outline" onClick={() => socket.current?.close()}>
              <Plug aria-hidden /> Disconnect
            </Button>
          )}
        </div>
      </div>
      <CodeEditor label="WebSocket message" language="json" path="try-socket-message.json" value={message} onChange={setMessage} height={100} />
      <div>
        <Button
          size="sm"
          disabled={state !== "open"}
          onClick={() => {
            socket.current?.send(message);
            add({ dir: "sent", text: message });
          }}
        >
          <Send aria-hidden /> Send message
        </Button>
      </div>
      <ol aria-label="WebSocket messages" className="flex flex-col gap-1 font-mono text-xs">
        {lines.map((l, i) => (
          <li key={i} className={l.dir === "info" ? "text-muted-foreground" : "grid grid-cols-[5rem_1fr] gap-2 rounded-md bg-muted px-2 py-1"}>
            {l.dir === "info" ? (
              l.text
            ) : (
              <>
                <span className="font-semibold">{l.dir === "sent" ? "→ sent" : "← received"}</span>
                <span className="break-all whitespace-pre-wrap">{l.text}</span>
              </>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
