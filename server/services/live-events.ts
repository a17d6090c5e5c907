// Live updates for the UI (GET /api/v1/events): stub hits and misses and mock
// changes, from every process, through PostgreSQL NOTIFY on "live_events"
// (payloads are kept small: NOTIFY carries at most 8000 bytes).
import { rawPool } from "@/server/db/client";
import { listen, MOCKS_CHANNEL, type Listener } from "@/server/db/notify";

export const LIVE_CHANNEL = "live_events";

export type LiveEvent =
  | { type: "stub.hit"; namespaceId: string; at: string; mockId: string; method: string; url: string; status: number; durationMs: number }
  | { type: "stub.miss"; namespaceId: string; at: string; method: string; path: string }
  | { type: "mocks.changed"; namespaceId: string; at: string };

const MAX_PAYLOAD = 7500;

export async function publishLive(events: LiveEvent[]) {
  let batch: LiveEvent[] = [];
  let size = 2;
  const send = async () => {
    if (!batch.length) return;
    // Plain pg, like the recorder's other writes: this runs once per hit batch, and Prisma compiles even raw statements on the event loop.
    await rawPool().query("SELECT pg_notify($1, $2)", [LIVE_CHANNEL, JSON.stringify(batch)]);
    batch = [];
    size = 2;
  };
  for (const e of events) {
    const len = JSON.stringify(e).length + 1;
    if (len > MAX_PAYLOAD) continue;
    if (size + len > MAX_PAYLOAD) await send();
    batch.push(e);
    size += len;
  }
  await send();
}

type Subscriber = (e: LiveEvent) => void;
interface LiveState {
  subscribers: Set<Subscriber>;
  listeners: Listener[];
}
const g = globalThis as unknown as { __polymockLive?: LiveState };

function state(): LiveState {
  if (g.__polymockLive) return g.__polymockLive;
  const s: LiveState = { subscribers: new Set(), listeners: [] };
  g.__polymockLive = s;
  const fanOut = (e: LiveEvent) => {
    for (const sub of s.subscribers) sub(e);
  };
  s.listeners.push(
    listen(LIVE_CHANNEL, (payload) => {
      try {
        for (const e of JSON.parse(payload) as LiveEvent[]) fanOut(e);
      } catch {}
    }),
    listen(MOCKS_CHANNEL, (namespaceId) => fanOut({ type: "mocks.changed", namespaceId, at: new Date().toISOString() })),
  );
  return s;
}

/** Receives every live event of every process; returns the unsubscribe function. */
export function subscribeLive(fn: Subscriber): () => void {
  const s = state();
  s.subscribers.add(fn);
  return () => s.subscribers.delete(fn);
}
