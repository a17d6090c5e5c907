// One claimed part on a runner agent: the load engine with the part's
// execution segment, its points reported each second and its cumulative
// metrics every few seconds (so what it measured still counts if this
// process dies), a stop when a report answers {stop: true}, and the final
// report, retried while the server is away. The same reporting as the web
// process's own runs (server/services/perf/local-runs.ts), over HTTP.
import { setTimeout as sleep } from "node:timers/promises";
import type { ClaimedPart, PartFinishInput, PartProgressInput } from "@/server/contracts/runner-endpoints";
import { LoadInputError, runLoadTest, type SeriesPoint } from "@/server/perf/k6/engine";
import { type RunnerClient, ServerAnswerError } from "./client";

export interface PartContext {
  client: RunnerClient;
  runnerId: string;
  runnerName: string;
  /** Aborted when the agent shuts down: the part ends "failed", saying so. */
  shutdown: AbortSignal;
  snapshotEverySeconds: number;
  log: (message: string, fields?: Record<string, unknown>) => void;
}

const FINISH_RETRIES_MS = [1000, 2000, 4000, 8000, 15_000, 30_000];

/** Sends the final report until the server has it (a repeated one changes nothing). */
async function finish(ctx: PartContext, partId: string, report: PartFinishInput): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await ctx.client.finish(ctx.runnerId, partId, report);
      return;
    } catch (e) {
      const status = (e as ServerAnswerError).status;
      // 4xx other than 429: retrying cannot help (the part is not ours any more, the token was revoked).
      if (attempt >= FINISH_RETRIES_MS.length || (status >= 400 && status < 500 && status !== 429)) {
        ctx.log(`part ${partId}: final report not delivered (${(e as Error).message}); the server will mark it lost`);
        return;
      }
      await sleep(FINISH_RETRIES_MS[attempt]);
    }
  }
}

export async function runPart(ctx: PartContext, part: ClaimedPart): Promise<void> {
  const stop = new AbortController();
  const onShutdown = () => stop.abort();
  ctx.shutdown.addEventListener("abort", onShutdown);
  let seq = 0;
  let ticks = 0;
  let pending: SeriesPoint[] = [];
  let reporting = Promise.resolve();

  const report = (extra: Omit<PartProgressInput, "seq" | "points">) => {
    // One report at a time, in order; points are taken when the report leaves, so none is skipped or reordered.
    reporting = reporting.then(async () => {
      const points = pending;
      pending = [];
      try {
        const answer = await ctx.client.progress(ctx.runnerId, part.partId, { seq: ++seq, points, ...extra });
        if (answer.stop) stop.abort();
      } catch (e) {
        // Not delivered: the points go with the next report (the snapshot is cumulative anyway).
        pending = points.concat(pending);
        if (e instanceof ServerAnswerError && e.status === 404) stop.abort();
        ctx.log(`part ${part.partId}: progress not delivered (${(e as Error).message})`);
      }
    });
  };

  let final: PartFinishInput;
  try {
    const result = await runLoadTest({
      source: part.script,
      options: part.options,
      env: part.env,
      files: part.files,
      segment: part.segment,
      signal: stop.signal,
      onProgress: (point, live, snapshot) => {
        pending.push(point);
        // Counted, not read from point.t: t is in tenths of a second and drifts off whole seconds.
        const withSnapshot = ++ticks % ctx.snapshotEverySeconds === 0;
        report(withSnapshot ? { snapshot: snapshot() as PartProgressInput["snapshot"], thresholds: live.map(({ key, source }) => ({ key, source })) } : {});
      },
    });
    await reporting;
    const shutDown = ctx.shutdown.aborted && result.status === "stopped";
    final = {
      status: shutDown ? "failed" : result.status,
      reason: shutDown ? `runner '${ctx.runnerName}' was shut down during the run` : result.reason,
      snapshot: { metrics: result.metrics, rootGroup: result.summary.root_group, errors: result.errors, durationMs: result.durationMs, handleSummary: result.handleSummary } as PartFinishInput["snapshot"],
      series: result.series,
      thresholds: result.thresholds.map(({ key, source }) => ({ key, source })),
      logs: result.logs,
    };
  } catch (e) {
    await reporting;
    final = { status: "error", reason: e instanceof LoadInputError ? e.message : `the run could not go on: ${(e as Error).message}` };
  } finally {
    ctx.shutdown.removeEventListener("abort", onShutdown);
  }
  await finish(ctx, part.partId, final);
  ctx.log(`part ${part.segment.index + 1}/${part.segment.count} of run ${part.resultId} ended: ${final.status}${final.reason ? ` (${final.reason})` : ""}`);
}
