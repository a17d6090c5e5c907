// The runner's NATS module: one session (./nats-session.ts) per nats
// protocol server, restarted when its URL, credentials or name change. The
// subscriptions a session holds follow the namespace's nats mocks: those
// whose serverName names the server, and those naming none (every nats
// server of their namespace serves them). It follows mock changes on the
// mocks_changed notification, reading the subscriptions from the same
// rebuilt index the messages are then matched against.
import { listen, MOCKS_CHANNEL, type Listener } from "@/server/db/notify";
import { subscriptionKey, subscriptionOf, type NatsSubscription } from "@/server/engine/protocols/nats";
import { logger } from "@/server/lib/logger";
import { invalidateNamespace, namespaceMocks } from "@/server/serving/mock-index";
import { storedCredentials } from "@/server/services/protocol-servers";
import type { ListenerReport, ProtocolModule, ReportState, ServerRow } from "../module";
import { NatsSession } from "./nats-session";

interface Slot {
  row: ServerRow;
  fingerprint: string;
  session: NatsSession;
  report: () => ListenerReport;
}

/** The subscriptions the nats mocks of `namespace` name for the server `serverName`, one per subject and queue group. */
export async function subscriptionsFor(namespace: string, serverName: string): Promise<NatsSubscription[]> {
  const index = await namespaceMocks(namespace);
  const out = new Map<string, NatsSubscription>();
  for (const mock of index?.indexes.nats?.all() ?? []) {
    const block = mock.def.nats;
    if (!block || (block.serverName && block.serverName !== serverName)) continue;
    const s = subscriptionOf(block);
    out.set(subscriptionKey(s), s);
  }
  return [...out.values()];
}

function credentialsOf(row: ServerRow) {
  try {
    return storedCredentials(row);
  } catch {
    // Undecryptable (APP_SECRET changed): the URL's own credentials, if any, apply.
    return null;
  }
}

export function natsModule(opts: { backoff?: { firstMs: number; maxMs: number } } = {}): ProtocolModule {
  const slots = new Map<string, Slot>();
  let report: ReportState = () => {};
  let mocks: Listener | undefined;
  const fingerprint = (row: ServerRow) => JSON.stringify([row.name, row.namespace.name, row.url, row.credentialsEnc]);

  const open = (row: ServerRow): Slot => {
    let current: ListenerReport = { id: row.id, name: row.name, namespace: row.namespace.name, protocol: row.protocol, port: null, state: "stopped" };
    const session = new NatsSession({
      namespace: row.namespace.name,
      serverName: row.name,
      url: row.url ?? "",
      credentials: credentialsOf(row),
      subscriptions: () => subscriptionsFor(row.namespace.name, row.name),
      onState: (state, reason) => {
        current = { ...current, state, reason };
        report(row, state, reason);
      },
      backoff: opts.backoff,
    });
    const slot: Slot = { row, fingerprint: fingerprint(row), session, report: () => current };
    slot.session.start();
    return slot;
  };

  const onMocksChanged = (namespaceId: string) => {
    const affected = [...slots.values()].filter((s) => s.row.namespaceId === namespaceId);
    if (!affected.length) return;
    // Rebuilt here rather than waiting for the index's own listener: the subscriptions must come from the index that will match.
    invalidateNamespace(namespaceId);
    for (const s of affected) void s.session.refresh().catch((err) => logger().warn({ err, serverName: s.row.name }, "nats: refresh failed"));
  };

  return {
    name: "nats",
    protocols: ["nats"],
    async start(r) {
      report = r;
      mocks = listen(MOCKS_CHANNEL, onMocksChanged, () => {
        for (const s of slots.values()) onMocksChanged(s.row.namespaceId);
      });
      await mocks.ready;
    },
    async reconcile(rows) {
      const wanted = new Map(rows.map((r) => [r.id, r]));
      for (const [id, slot] of slots) {
        const row = wanted.get(id);
        // A session in error reconnects by itself: the runner's timed retry does not restart it.
        if (row && fingerprint(row) === slot.fingerprint) continue;
        await slot.session.close();
        slots.delete(id);
        if (!row) report(slot.row, "stopped", null);
      }
      for (const row of rows) if (!slots.has(row.id)) slots.set(row.id, open(row));
    },
    async stop() {
      await mocks?.close();
      for (const slot of slots.values()) {
        await slot.session.close();
        report(slot.row, "stopped", null);
      }
      slots.clear();
    },
    state: () => [...slots.values()].map((s) => s.report()),
  };
}
