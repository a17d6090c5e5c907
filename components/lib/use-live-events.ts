"use client";
// Live updates of a namespace from GET /api/v1/events (server-sent events):
// `stub.hit`, `stub.miss` and `mocks.changed`. EventSource reconnects by itself.
import { useEffect, useRef, useState } from "react";

export type LiveEventType = "stub.hit" | "stub.miss" | "mocks.changed";
export type LiveEventData = { at: string; mockId?: string; method?: string; url?: string; path?: string; status?: number; durationMs?: number };

export function useLiveEvents(namespace: string | undefined, onEvent: (type: LiveEventType, data: LiveEventData) => void): "connecting" | "live" | "offline" {
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  const [state, setState] = useState<"connecting" | "live" | "offline">("connecting");
  useEffect(() => {
    if (!namespace) return;
    const source = new EventSource(`/api/v1/events?namespace=${encodeURIComponent(namespace)}`);
    source.onopen = () => setState("live");
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? "offline" : "connecting");
    const types: LiveEventType[] = ["stub.hit", "stub.miss", "mocks.changed"];
    const listeners = types.map((type) => {
      const fn = (e: MessageEvent<string>) => {
        try {
          handler.current(type, JSON.parse(e.data) as LiveEventData);
        } catch {}
      };
      source.addEventListener(type, fn);
      return fn;
    });
    return () => {
      types.forEach((t, i) => source.removeEventListener(t, listeners[i]!));
      source.close();
    };
  }, [namespace]);
  return state;
}
