// Cross-process invalidation: PostgreSQL LISTEN/NOTIFY on "mocks_changed"
// with the namespace id as payload. Each process keeps one listening
// connection and reconnects with backoff if it drops.
import pg from "pg";
import { databaseUrl, db } from "./client";

export const MOCKS_CHANNEL = "mocks_changed";

export async function notifyMocksChanged(namespaceId: string): Promise<void> {
  await db().$executeRaw`SELECT pg_notify(${MOCKS_CHANNEL}, ${namespaceId})`;
}

export interface Listener {
  close(): Promise<void>;
  /** Resolves once LISTEN first succeeds: notifications sent after it are not missed. */
  ready: Promise<void>;
}

export function listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Listener {
  let client: pg.Client | undefined;
  let closed = false;
  let attempt = 0;
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: databaseUrl() });
    c.on("notification", (msg) => {
      if (msg.channel === channel) onMessage(msg.payload ?? "");
    });
    c.on("error", () => {});
    c.on("end", () => {
      if (closed) return;
      // Notifications sent while disconnected are lost: the caller rebuilds everything on reconnect.
      setTimeout(() => void connect().then(() => onReconnect?.()), Math.min(5000, 100 * 2 ** attempt++)).unref();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      client = c;
      attempt = 0;
      markReady();
    } catch {
      c.end().catch(() => {});
    }
  };
  void connect();
  return {
    ready,
    async close() {
      closed = true;
      await client?.end().catch(() => {});
    },
  };
}
