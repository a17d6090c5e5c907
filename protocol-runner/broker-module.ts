// What the broker modules (RabbitMQ, NATS, Kafka) share: one session per
// protocol server of their protocol, restarted when what it connects with
// changes (its fingerprint), stopped when its row goes; sessions report
// their state, reconnect by themselves (the runner's timed retry does not
// restart them), and re-read what to consume whenever the mocks of their
// namespace change (mocks_changed), from the same rebuilt index the messages
// are then matched against.
import type { ServerProtocol } from "@/server/contracts/protocol-servers";
import { listen, MOCKS_CHANNEL, type Listener } from "@/server/db/notify";
import { logger } from "@/server/lib/logger";
import { invalidateNamespace } from "@/server/serving/mock-index";
import { storedCredentials } from "@/server/services/protocol-servers";
import type { ListenerReport, ProtocolModule, ReportState, ServerRow } from "./module";

export interface BrokerSession {
  start(): void;
  /** Consumes what the mocks name now; resolves once done. */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

export interface SessionContext {
  /** The stored credentials, or null (none, or undecryptable after an APP_SECRET change: the URL's own apply). */
  credentials: { username?: string; password?: string } | null;
  onState(state: "listening" | "error", reason: string | null): void;
}

export interface BrokerModuleSpec {
  name: string;
  protocol: ServerProtocol;
  /** The fields of a row whose change restarts its session. */
  fingerprint(row: ServerRow): unknown[];
  open(row: ServerRow, ctx: SessionContext): BrokerSession;
}

function credentialsOf(row: ServerRow) {
  try {
    return storedCredentials(row);
  } catch {
    return null;
  }
}

interface Slot {
  row: ServerRow;
  fingerprint: string;
  session: BrokerSession;
  report: () => ListenerReport;
}

export function brokerModule(spec: BrokerModuleSpec): ProtocolModule {
  const slots = new Map<string, Slot>();
  let report: ReportState = () => {};
  let mocks: Listener | undefined;
  const fingerprint = (row: ServerRow) => JSON.stringify([row.name, row.namespace.name, row.credentialsEnc, ...spec.fingerprint(row)]);

  const open = (row: ServerRow): Slot => {
    let current: ListenerReport = { id: row.id, name: row.name, namespace: row.namespace.name, protocol: row.protocol, port: null, state: "stopped" };
    const session = spec.open(row, {
      credentials: credentialsOf(row),
      onState: (state, reason) => {
        current = { ...current, state, reason };
        report(row, state, reason);
      },
    });
    session.start();
    return { row, fingerprint: fingerprint(row), session, report: () => current };
  };

  const onMocksChanged = (namespaceId: string) => {
    const affected = [...slots.values()].filter((s) => s.row.namespaceId === namespaceId);
    if (!affected.length) return;
    // Rebuilt here rather than waiting for the index's own listener: what to consume must come from the index that will match.
    invalidateNamespace(namespaceId);
    for (const s of affected) void s.session.refresh().catch((err) => logger().warn({ err, serverName: s.row.name }, `${spec.name}: refresh failed`));
  };

  return {
    name: spec.name,
    protocols: [spec.protocol],
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
