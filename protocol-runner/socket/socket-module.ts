// The runner's TCP and UDP module: one listener per tcp/udp protocol server,
// restarted when its row changes and stopped when it is deleted. A listener
// that cannot start is reported as an error state and retried at the next
// reconcile; it never stops the runner.
import { optionsFor } from "@/server/contracts/protocol-servers";
import type { ListenerReport, ProtocolModule, ReportState, ServerRow } from "../module";
import { listenErrorReason } from "./listen-error";
import { startTcpListener, type RunningListener } from "./tcp-listener";
import { startUdpListener } from "./udp-listener";

interface Slot {
  row: ServerRow;
  fingerprint: string;
  running?: RunningListener;
  report: ListenerReport;
}

/** What a listener depends on: any change restarts it. */
function fingerprint(row: ServerRow, defaultHost: string) {
  return JSON.stringify([row.protocol, row.host ?? defaultHost, row.port, row.name, row.namespace.name, row.options]);
}

export function socketModule(defaultHost: string): ProtocolModule {
  const slots = new Map<string, Slot>();
  let report: ReportState = () => {};

  async function open(row: ServerRow): Promise<Slot> {
    const host = row.host ?? defaultHost;
    const port = row.port ?? 0;
    const slot: Slot = { row, fingerprint: fingerprint(row, defaultHost), report: { id: row.id, name: row.name, namespace: row.namespace.name, protocol: row.protocol, port, state: "stopped" } };
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
      const common = { host, port, namespace: row.namespace.name, serverName: row.name, onFailure };
      slot.running = row.protocol === "udp" ? await startUdpListener(common) : await startTcpListener({ ...common, options: optionsFor("tcp", row.options) });
      setState("listening");
    } catch (err) {
      setState("error", listenErrorReason(err, host, port));
    }
    return slot;
  }

  return {
    name: "socket",
    protocols: ["tcp", "udp"],
    async start(r) {
      report = r;
    },
    async reconcile(rows) {
      const wanted = new Map(rows.map((r) => [r.id, r]));
      // Stop first, so a server moved to another row's old port can take it.
      for (const [id, slot] of slots) {
        const row = wanted.get(id);
        const keep = row && fingerprint(row, defaultHost) === slot.fingerprint && slot.running;
        if (keep) continue;
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
