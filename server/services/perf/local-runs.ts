// Load runs the web process runs itself (when no runner agent is registered):
// the engine in this process, its points reported each second and its
// metrics every few seconds through the same part functions a runner agent
// uses, and a stop that lands within a second whichever process received it
// (an in-process abort here, the result's stop flag polled for the others).
import { db } from "@/server/db/client";
import { logger } from "@/server/lib/logger";
import { type LoadRunInput, runLoadTest, type SeriesPoint } from "@/server/perf/k6/engine";
import { LoadInputError } from "@/server/perf/k6/plan";
import { finishPart, markPartStarted, type ProgressReport, recordPartProgress } from "./run-parts";

const running = new Map<string, AbortController>();
const STOP_POLL_MS = 250;
const SNAPSHOT_EVERY = 5;

/** Load runs this process runs at once; more would measure the web process rather than the target. */
export function localConcurrency(): number {
  const n = Number(process.env.PERF_LOCAL_CONCURRENCY);
  return Number.isInteger(n) && n > 0 ? n : 2;
}

export function localRunsInProgress(): number {
  return running.size;
}

export function stopLocalRun(resultId: string): boolean {
  const ctrl = running.get(resultId);
  ctrl?.abort();
  return Boolean(ctrl);
}

export interface LocalRun {
  resultId: string;
  partId: string;
  namespace: string;
  source: string;
  options?: Record<string, unknown>;
  env?: Record<string, string>;
  files?: Record<string, string>;
}

/** Starts the run in the background; its outcome is written to its part and result. */
export function runLocally(run: LocalRun): void {
  const ctrl = new AbortController();
  running.set(run.resultId, ctrl);
  void execute(run, ctrl).finally(() => running.delete(run.resultId));
}

async function execute(run: LocalRun, ctrl: AbortController): Promise<void> {
  let seq = 0;
  let taken = 0;
  let pending: SeriesPoint[] = [];
  let reporting = Promise.resolve();
  const poll = setInterval(() => {
    void db()
      .perfResult.findUnique({ where: { id: run.resultId }, select: { stopRequested: true } })
      .then((r) => {
        if (!r || r.stopRequested) ctrl.abort();
      })
      .catch(() => {});
  }, STOP_POLL_MS);
  const report = (points: SeriesPoint[], extra: Partial<ProgressReport>) => {
    // One report at a time, in order: each carries the next sequence number.
    reporting = reporting
      .then(() => recordPartProgress(run.partId, { seq: ++seq, points, ...extra }))
      .then((r) => {
        if (r.stop) ctrl.abort();
      })
      .catch((e) => logger().warn({ err: e, resultId: run.resultId }, "load run progress not recorded"));
  };
  try {
    await markPartStarted(run.partId, null);
    const input: LoadRunInput = {
      source: run.source,
      options: run.options,
      env: run.env,
      files: run.files,
      signal: ctrl.signal,
      onProgress: (point, live, snapshot) => {
        pending.push(point);
        // Every few reports (points are not taken on whole seconds, so their t cannot say when).
        const withSnapshot = ++taken % SNAPSHOT_EVERY === 0;
        report(pending, withSnapshot ? { snapshot: snapshot(), thresholds: live.map(({ key, source }) => ({ key, source })) } : {});
        pending = [];
      },
    };
    const result = await runLoadTest(input);
    await reporting;
    await finishPart(run.partId, {
      status: result.status,
      reason: result.reason,
      snapshot: { metrics: result.metrics, rootGroup: result.summary.root_group, errors: result.errors, durationMs: result.durationMs, handleSummary: result.handleSummary },
      series: result.series,
      thresholds: result.thresholds.map(({ key, source }) => ({ key, source })),
      logs: result.logs,
    });
  } catch (e) {
    await reporting;
    const reason = e instanceof LoadInputError ? e.message : `the run could not go on: ${(e as Error).message}`;
    if (!(e instanceof LoadInputError)) logger().error({ err: e, resultId: run.resultId }, "load run failed");
    await finishPart(run.partId, { status: "error", reason }).catch((err) => logger().error({ err }, "load run outcome not recorded"));
  } finally {
    clearInterval(poll);
  }
}
