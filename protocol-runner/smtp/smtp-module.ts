// The runner's SMTP module: one listener per smtp protocol server, restarted
// when its row changes and stopped when it is deleted. A listener that cannot
// start is reported as an error state and retried at the next reconcile; it
// never stops the runner. (The same lifecycle as ../socket/socket-module.ts.)
import { optionsFor } from "@/server/contracts/protocol-servers";
import { storedCredentials } from "@/server/services/protocol-servers";
import type { ListenerReport, ProtocolModule, ReportState, ServerRow } from "../module";
import { listenErrorReason } from "../socket/listen-error";
import { startSmtpListener, type RunningListener } from "./smtp-listener";

interface Slot {
  row: ServerRow;
  fingerprint: string;
  running?: RunningListener;
  report: ListenerReport;
}

/** What a listener depends on (credentials included, for AUTH): any change restarts it. */
function fingerprint(row: ServerRow, defaultHost: string) {
  return JSON.stringify([row.host ?? defaultHost, row.port, row.name, row.namespace.name, row.options, row.credentialsEnc]);
}

function credentialsOf(row: ServerRow) {
  try {
    return storedCredentials(row);
  } catch {
    // Undecryptable (APP_SECRET changed): AUTH then fails for everyone, as without credentials.
    return null;
  }
}

export function smtpModule(defaultHost: string): ProtocolModule {
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
      slot.running = await startSmtpListener({
        host,
        port,
        namespace: row.namespace.name,
        namespaceId: row.namespaceId,
        serverName: row.name,
        options: optionsFor("smtp", row.options),
        credentials: credentialsOf(row),
        onFailure,
      });
      setState("listening");
    } catch (err) {
      setState("error", listenErrorReason(err, host, port));
    }
    return slot;
  }

  return {
    name: "smtp",
    protocols: ["smtp"],
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
