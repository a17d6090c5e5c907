// The runner's Kafka module: one session (./server-session.ts) per kafka
// protocol server, restarted when its brokers, credentials, options or name
// change. The topics a session consumes follow the namespace's kafka mocks:
// those whose serverName names the server, and those naming none (every kafka
// server of their namespace consumes them), grouped by consumer group. It
// follows mock changes on the mocks_changed notification, reading the topics
// from the same rebuilt index the records are then matched against.
import type { ISocketFactory } from "kafkajs";
import { listen, MOCKS_CHANNEL, type Listener } from "@/server/db/notify";
import { groupOf } from "@/server/engine/protocols/kafka";
import { logger } from "@/server/lib/logger";
import { invalidateNamespace, namespaceMocks } from "@/server/serving/mock-index";
import { storedCredentials } from "@/server/services/protocol-servers";
import type { ListenerReport, ProtocolModule, ReportState, ServerRow } from "../module";
import { KafkaSession } from "./server-session";

interface Slot {
  row: ServerRow;
  fingerprint: string;
  session: KafkaSession;
  report: () => ListenerReport;
}

/** Topics per consumer group ("" = the server's own) of the kafka mocks of `namespace` for the server `serverName`. */
export async function subscriptionsFor(namespace: string, serverName: string): Promise<Map<string, string[]>> {
  const index = await namespaceMocks(namespace);
  const out = new Map<string, Set<string>>();
  for (const mock of index?.indexes.kafka?.all() ?? []) {
    const block = mock.def.kafka;
    if (!block || (block.serverName && block.serverName !== serverName)) continue;
    const group = groupOf(block) ?? "";
    let topics = out.get(group);
    if (!topics) out.set(group, (topics = new Set()));
    topics.add(block.topic);
  }
  return new Map([...out].map(([g, t]) => [g, [...t]]));
}

function credentialsOf(row: ServerRow) {
  try {
    return storedCredentials(row);
  } catch {
    // Undecryptable (APP_SECRET changed): connect without credentials.
    return null;
  }
}

export interface KafkaModuleOptions {
  backoff?: { firstMs: number; maxMs: number };
  /** Tests: wraps every socket factory (to cut connections abruptly). */
  wrapSockets?: (factory: ISocketFactory) => ISocketFactory;
  /** See FETCH_MAX_WAIT_MS. */
  fetchMaxWaitMs?: number;
}

export function kafkaModule(opts: KafkaModuleOptions = {}): ProtocolModule {
  const slots = new Map<string, Slot>();
  let report: ReportState = () => {};
  let mocks: Listener | undefined;
  const fingerprint = (row: ServerRow) => JSON.stringify([row.name, row.namespace.name, row.brokers, row.credentialsEnc, row.options]);

  const open = (row: ServerRow): Slot => {
    let current: ListenerReport = { id: row.id, name: row.name, namespace: row.namespace.name, protocol: row.protocol, port: null, state: "stopped" };
    const session = new KafkaSession({
      serverId: row.id,
      namespace: row.namespace.name,
      serverName: row.name,
      brokers: row.brokers,
      credentials: credentialsOf(row),
      options: (row.options ?? {}) as Record<string, unknown>,
      subscriptions: () => subscriptionsFor(row.namespace.name, row.name),
      onState: (state, reason) => {
        current = { ...current, state, reason };
        report(row, state, reason);
      },
      backoff: opts.backoff,
      wrapSockets: opts.wrapSockets,
      fetchMaxWaitMs: opts.fetchMaxWaitMs,
    });
    const slot: Slot = { row, fingerprint: fingerprint(row), session, report: () => current };
    slot.session.start();
    return slot;
  };

  const onMocksChanged = (namespaceId: string) => {
    const affected = [...slots.values()].filter((s) => s.row.namespaceId === namespaceId);
    if (!affected.length) return;
    // Rebuilt here rather than waiting for the index's own listener: the topics must come from the index that will match.
    invalidateNamespace(namespaceId);
    for (const s of affected) void s.session.refresh().catch((err) => logger().warn({ err, serverName: s.row.name }, "kafka: refresh failed"));
  };

  return {
    name: "kafka",
    protocols: ["kafka"],
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
