// The runner's RabbitMQ module: one broker session (./broker-session.ts) per
// rabbitmq protocol server, restarted when its URL, credentials or name
// change. The queues a session consumes follow the namespace's rabbitmq
// mocks: those whose serverName names the server, and those naming none
// (every rabbitmq server of their namespace consumes them, as an SMTP mock
// without serverName takes mail from every SMTP server). It follows mock
// changes on the mocks_changed notification, reading the sources from the
// same rebuilt index the messages are then matched against.
import { listen, MOCKS_CHANNEL, type Listener } from "@/server/db/notify";
import { sourceKey, sourceOf, type RabbitSource } from "@/server/engine/protocols/rabbitmq";
import { logger } from "@/server/lib/logger";
import { invalidateNamespace, namespaceMocks } from "@/server/serving/mock-index";
import { storedCredentials } from "@/server/services/protocol-servers";
import type { ListenerReport, ProtocolModule, ReportState, ServerRow } from "../module";
import { BrokerSession } from "./broker-session";

interface Slot {
  row: ServerRow;
  fingerprint: string;
  session: BrokerSession;
  report: () => ListenerReport;
}

/** The sources the rabbitmq mocks of `namespace` name for the server `serverName`, one per source. */
export async function sourcesFor(namespace: string, serverName: string): Promise<RabbitSource[]> {
  const index = await namespaceMocks(namespace);
  const out = new Map<string, RabbitSource>();
  for (const mock of index?.indexes.rabbitmq?.all() ?? []) {
    const block = mock.def.rabbitmq;
    if (!block || (block.serverName && block.serverName !== serverName)) continue;
    const source = sourceOf(block);
    out.set(sourceKey(source), source);
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

export function rabbitmqModule(opts: { backoff?: { firstMs: number; maxMs: number } } = {}): ProtocolModule {
  const slots = new Map<string, Slot>();
  let report: ReportState = () => {};
  let mocks: Listener | undefined;
  const fingerprint = (row: ServerRow) => JSON.stringify([row.name, row.namespace.name, row.url, row.credentialsEnc]);

  const open = (row: ServerRow): Slot => {
    let current: ListenerReport = { id: row.id, name: row.name, namespace: row.namespace.name, protocol: row.protocol, port: null, state: "stopped" };
    const session = new BrokerSession({
      namespace: row.namespace.name,
      serverName: row.name,
      url: row.url ?? "",
      credentials: credentialsOf(row),
      sources: () => sourcesFor(row.namespace.name, row.name),
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
    // Rebuilt here rather than waiting for the index's own listener: the sources must come from the index that will match.
    invalidateNamespace(namespaceId);
    for (const s of affected) void s.session.refresh().catch((err) => logger().warn({ err, serverName: s.row.name }, "rabbitmq: refresh failed"));
  };

  return {
    name: "rabbitmq",
    protocols: ["rabbitmq"],
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
