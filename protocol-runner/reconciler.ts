// Keeps the modules' listeners in line with the protocol-server rows: a full
// reconcile at start, on every NOTIFY from the API (and after the LISTEN
// connection comes back, as notifications may have been lost), serialised so
// two reconciles never race over the same ports. A listener in error (say,
// its port taken by another program) is retried every RETRY_MS until it
// listens or its row changes.
import { db } from "@/server/db/client";
import { listen, type Listener } from "@/server/db/notify";
import { logger } from "@/server/lib/logger";
import { PROTOCOL_SERVERS_CHANNEL, setListenerState } from "@/server/services/protocol-servers";
import type { ListenerReport, ProtocolModule, ReportState, ServerRow } from "./module";

export interface Runner {
  /** Resolves once the rows as they are now are reconciled. */
  reconcile(): Promise<void>;
  listeners(): ListenerReport[];
  stop(): Promise<void>;
}

async function loadRows(): Promise<ServerRow[]> {
  // Rows of a namespace in the recycle bin are not served.
  return db().protocolServer.findMany({ where: { namespace: { deletedAt: null } }, include: { namespace: { select: { name: true } } }, orderBy: { createdAt: "asc" } });
}

/** How often listeners in error are tried again. */
const RETRY_MS = Number(process.env.RUNNER_RETRY_MS ?? 15_000);

export async function startRunner(modules: ProtocolModule[], opts: { retryMs?: number } = {}): Promise<Runner> {
  const retryMs = opts.retryMs ?? RETRY_MS;
  const log = logger();
  // Each row's state writes in the order they were reported; stop() waits for the last ones.
  const writes = new Map<string, Promise<void>>();
  const report: ReportState = (row, state, reason) => {
    const previous = writes.get(row.id) ?? Promise.resolve();
    const next = previous
      .then(() => setListenerState(row.id, state, reason ?? null))
      .catch((err) => log.warn({ err, id: row.id }, "could not record a listener's state"));
    writes.set(row.id, next);
    void next.then(() => {
      if (writes.get(row.id) === next) writes.delete(row.id);
    });
  };
  for (const m of modules) await m.start(report);

  let chain: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  const reconcile = (): Promise<void> => {
    // Changes arriving while a reconcile runs fold into one more reconcile.
    if (queued) return queued;
    const next = chain.then(async () => {
      queued = undefined;
      const rows = await loadRows();
      for (const m of modules) {
        if (m.protocols.length === 0) continue;
        try {
          await m.reconcile(rows.filter((r) => (m.protocols as readonly string[]).includes(r.protocol)));
        } catch (err) {
          log.error({ err, module: m.name }, "reconcile failed");
        }
      }
    });
    queued = next;
    chain = next.catch((err) => log.error({ err }, "loading protocol servers failed"));
    return next;
  };

  // A module reopens a listener in error when reconciled with its unchanged row.
  const retry = setInterval(() => {
    if (modules.some((m) => m.state().some((l) => l.state === "error"))) void reconcile().catch(() => {});
  }, retryMs);
  retry.unref();

  const listener: Listener = listen(PROTOCOL_SERVERS_CHANNEL, () => void reconcile().catch(() => {}), () => void reconcile().catch(() => {}));
  // Listening before the first load: a change saved in between is not missed.
  await listener.ready;
  await reconcile();
  return {
    reconcile,
    listeners: () => modules.flatMap((m) => m.state()),
    async stop() {
      clearInterval(retry);
      await listener.close();
      await chain;
      for (const m of modules) await m.stop();
      await Promise.all(writes.values());
    },
  };
}
