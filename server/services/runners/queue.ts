// The PostgreSQL job queue of runner parts: pg-boss in the web process, in
// its own schema ("pgboss") of the application's database, on a small pool
// of its own. Runner agents never reach it (they have no database
// credentials): the claim endpoint fetches a job for them. pg-boss gives the
// leases (a job is handed to one fetcher only, SKIP LOCKED; an active job
// that outlives its expiry is failed by pg-boss's supervisor), and the job's
// id is the part's id, so a part is queued once whatever happens.
import PgBoss from "pg-boss";
import { databaseUrl } from "@/server/db/client";
import { logger } from "@/server/lib/logger";

export interface PartJob {
  partId: string;
  resultId: string;
  namespaceId: string;
  /** The part's VUs at most (its k6 execution segment of the plan). */
  vus: number;
  segment: { index: number; count: number };
  maxDurationMs: number;
  /** __ENV values and open()-able files: kept only in the job (a result keeps the names of env values only). */
  env: Record<string, string>;
  files: Record<string, string>;
}

type Cached = { url: string; boss: Promise<PgBoss>; queues: Set<string> };
const holder = globalThis as unknown as { __polymockRunnerQueue?: Cached };

/** Queue of a namespace's parts (any runner that may serve the namespace takes them). */
export const namespaceQueue = (namespaceId: string) => `perf-part-ns-${namespaceId}`;
/** Queue of parts that asked for one runner. */
export const runnerOnlyQueue = (runnerId: string) => `perf-part-runner-${runnerId}`;

/** pg-boss caps a lease below 24 h; a longer run keeps going, its sweep (15 s of silence) still guards it. */
const MAX_LEASE_S = 23 * 3600;

/** The lease of a part's job: its plan's longest run plus room for setup() and teardown(). */
export function leaseSecondsFor(maxDurationMs: number): number {
  return Math.min(MAX_LEASE_S, Math.ceil(maxDurationMs / 1000) + 180);
}

function start(url: string): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    schema: "pgboss",
    application_name: "polymock-queue",
    max: 3,
    // No cron here (schedules have their own scheduler); the supervisor expires leases and archives.
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: 30,
    // Jobs carry __ENV values: ended ones leave the queue after a minute and the archive after an hour.
    archiveCompletedAfterSeconds: 60,
    archiveFailedAfterSeconds: 60,
    deleteAfterSeconds: 3600,
  });
  boss.on("error", (err) => logger().warn({ err }, "job queue error"));
  return boss.start();
}

/** The started queue (started at first use, again after DATABASE_URL changes). */
export function runnerQueue(): Promise<PgBoss> {
  const url = databaseUrl();
  const cached = holder.__polymockRunnerQueue;
  if (cached && cached.url === url) return cached.boss;
  if (cached) void cached.boss.then((b) => b.stop({ graceful: false, wait: false })).catch(() => {});
  const boss = start(url);
  const entry: Cached = { url, boss, queues: new Set() };
  holder.__polymockRunnerQueue = entry;
  // A failed start (database down) is not remembered: the next call tries again.
  boss.catch(() => {
    if (holder.__polymockRunnerQueue === entry) holder.__polymockRunnerQueue = undefined;
  });
  return boss;
}

/** Stops the queue's supervisor and closes its pool (web process shutdown, tests). */
export async function stopRunnerQueue(): Promise<void> {
  const cached = holder.__polymockRunnerQueue;
  holder.__polymockRunnerQueue = undefined;
  if (!cached) return;
  const boss = await cached.boss.catch(() => null);
  await boss?.stop({ graceful: false, wait: true, timeout: 5000 });
}

async function ensureQueue(boss: PgBoss, name: string): Promise<void> {
  const cached = holder.__polymockRunnerQueue;
  if (cached?.queues.has(name)) return;
  // No retries: a load part must not run twice (docs/decisions.md, "Runner agents").
  await boss.createQueue(name, { name, policy: "standard", retryLimit: 0 });
  cached?.queues.add(name);
}

/** Queues one part; answers its job id (the part's id). Sending a part twice queues it once. */
export async function sendPart(queue: string, job: PartJob): Promise<string> {
  const boss = await runnerQueue();
  await ensureQueue(boss, queue);
  const id = await boss.send(queue, job, { id: job.partId, singletonKey: job.partId, retryLimit: 0, expireInSeconds: leaseSecondsFor(job.maxDurationMs) });
  return id ?? job.partId;
}

/** Leases the next job of a queue, or none. */
export async function fetchPart(queue: string): Promise<{ id: string; data: PartJob } | null> {
  const boss = await runnerQueue();
  await ensureQueue(boss, queue);
  const [job] = await boss.fetch<PartJob>(queue);
  return job ? { id: job.id, data: job.data } : null;
}

/**
 * Puts a leased job back where it was (its creation time keeps its place):
 * the runner that fetched it cannot take it after all. pg-boss has no
 * "release", but cancel then resume is exactly that with its public API.
 */
export async function releasePart(queue: string, jobId: string): Promise<void> {
  const boss = await runnerQueue();
  await boss.cancel(queue, jobId);
  await boss.resume(queue, jobId);
}

/** The part ended (reported its result): its lease ends. */
export async function completePart(queue: string, jobId: string): Promise<void> {
  const boss = await runnerQueue();
  await boss.complete(queue, jobId);
}

/** Parts that will never run (a cancelled task, a job whose part already ended). */
export async function cancelParts(queue: string, jobIds: string[]): Promise<void> {
  if (!jobIds.length) return;
  const boss = await runnerQueue();
  await boss.cancel(queue, jobIds);
}

export interface PartJobState {
  state: "created" | "retry" | "active" | "completed" | "cancelled" | "failed";
  /** When it was last leased (active), and when it ended (cancelled, completed, failed). */
  startedOn: Date | null;
  completedOn: Date | null;
  /** The VUs the part needs at once (a runner claims it only with that many free). */
  vus: number;
}

/** Where a part's job stands in the queue (archived jobs included); null once pg-boss has deleted it. */
export async function partJobState(queue: string, jobId: string): Promise<PartJobState | null> {
  const boss = await runnerQueue();
  const job = await boss.getJobById<PartJob>(queue, jobId, { includeArchive: true });
  if (!job) return null;
  return { state: job.state, startedOn: job.startedOn ?? null, completedOn: job.completedOn ?? null, vus: job.data?.vus ?? 0 };
}
