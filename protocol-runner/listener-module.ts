// The lifecycle every listener module shares (TCP/UDP, SMTP): one listener per
// protocol-server row, restarted when what it depends on changes, stopped
// when its row goes. A listener that cannot start, or fails later, is the
// row's error state with the reason; the runner's timed retry reconciles it
// again. It never stops the runner.
import type { ListenerReport, ProtocolModule, ReportState, ServerRow } from "./module";
import { listenErrorReason } from "./socket/listen-error";
import type { ServerProtocol } from "@/server/contracts/protocol-servers";

export interface RunningListener {
  close(): Promise<void>;
}

export interface ListenerKind {
  name: string;
  protocols: readonly ServerProtocol[];
  /** What the listener depends on: a change restarts it. */
  fingerprint(row: ServerRow, host: string): unknown;
  /** Starts it on `host`:`port`; rejects with the listen error (port in use, …). */
  start(row: ServerRow, host: string, port: number, onFailure: (err: unknown) => void): Promise<RunningListener>;
}

interface Slot {
  row: ServerRow;
  fingerprint: string;
  running?: RunningListener;
  report: ListenerReport;
}

export function listenerModule(kind: ListenerKind, defaultHost: string): ProtocolModule {
  const slots = new Map<string, Slot>();
  let report: ReportState = () => {};
  const fingerprint = (row: ServerRow) => JSON.stringify([row.protocol, row.name, row.namespace.name, row.port, kind.fingerprint(row, row.host ?? defaultHost)]);

  async function open(row: ServerRow): Promise<Slot> {
    const host = row.host ?? defaultHost;
    const port = row.port ?? 0;
    const slot: Slot = { row, fingerprint: fingerprint(row), report: { id: row.id, name: row.name, namespace: row.namespace.name, protocol: row.protocol, port, state: "stopped" } };
    const setState = (state: ListenerReport["state"], reason: string | null = null) => {
      slot.report = { ...slot.report, state, reason };
      report(row, state, reason);
    };
    const onFailure = (err: unknown) => {
      setState("error", listenErrorReason(err, host, port));
      void slot.running?.close().catch(() => {});
      slot.running = undefined;
    };
    try {
      slot.running = await kind.start(row, host, port, onFailure);
      setState("listening");
    } catch (err) {
      setState("error", listenErrorReason(err, host, port));
    }
    return slot;
  }

  return {
    name: kind.name,
    protocols: kind.protocols,
    async start(r) {
      report = r;
    },
    async reconcile(rows) {
      const wanted = new Map(rows.map((r) => [r.id, r]));
      // Stop first, so a server moved to another row's old port can take it.
      for (const [id, slot] of slots) {
        const row = wanted.get(id);
        if (row && fingerprint(row) === slot.fingerprint && slot.running) continue;
        await slot.running?.close();
        slots.delete(id);
        // A row still there but no longer served (its namespace deleted) says so; a deleted row ignores it.
        if (!row) report(slot.row, "stopped", null);
      }
      for (const row of rows) {
        if (slots.has(row.id)) continue;
        slots.set(row.id, await open(row));
      }
    },
    async stop() {
      for (const slot of slots.values()) {
        await slot.running?.close();
        report(slot.row, "stopped", null);
      }
      slots.clear();
    },
    state: () => [...slots.values()].map((s) => s.report),
  };
}
