// Runs a k6 script: its options become scenarios, each scenario's executor
// starts iterations on VUs (one isolate each), the host records k6's HTTP
// metrics as it sends, and every second a time-series point is taken and the
// thresholds are evaluated (abortOnFail stops the run). What comes out is
// k6's end-of-test summary plus the per-second series for charts and a
// metrics snapshot another runner's result can be merged with. Pure of the
// database: the web process and the runner agents both call runLoadTest.
//
// This file is the conductor: VU 0 (options, setup, teardown, handleSummary),
// the clock, the thresholds and the result. The VUs run in parts (VuGroup):
// one in this thread for a small run, one per worker thread for a large one
// (worker-pool.ts), whose measurements are merged every second.
import os from "node:os";
import type { PrivatePolicy } from "@/server/lib/ssrf";
import { type Aggregate, MetricRegistry, newAggregate, type Tags } from "../metrics";
import { buildSummary, evaluateThresholds, type GroupResult, GroupTree, summaryText, type SummaryData } from "../summary";
import type { Threshold } from "../thresholds";
import { LoadInputError, planFrom } from "./plan";
import { maxVusOf, type Scenario, type Segment, segmentScenarios } from "./scenarios";
import { type GroupConfig, type GroupSnapshot, VuGroup } from "./vu-group";
import { toAsyncScript } from "./async-script";
import { checkScript, K6Vu, RunCounters, ScriptError, type VuHost } from "./vu";
import { LocalPart, type RunPart, splitScenarios, WorkerPart } from "./worker-pool";

export { LoadInputError };

export interface LoadRunInput {
  source: string;
  /** Overrides of the script's `options` (the API's `options`), merged over them. */
  options?: Record<string, unknown>;
  env?: Record<string, string>;
  /** open()-able files: name → text (binary files as base64 under `binaryFiles`). */
  files?: Record<string, string>;
  binaryFiles?: Record<string, string>;
  privatePolicy?: PrivatePolicy;
  limits?: { memoryMb?: number; iterationCpuMs?: number; maxLogLines?: number };
  signal?: AbortSignal;
  /** This runner's part when a task is split over several (VUs, iterations and rates divided). */
  segment?: Segment;
  /**
   * Event loops for the VUs' requests: worker threads, or 1 for the engine's
   * own thread (the default on one or two cores; see DEFAULT_WORKERS). A
   * small run stays in the engine's thread whatever is asked.
   */
  workers?: number;
  /**
   * shared (the default; LOAD_VU_MODE sets it too): the VUs are contexts of
   * shared isolates when the script can be rewritten to await its waits
   * (async-script.ts), else each an isolate of its own, as with "isolate".
   */
  vuMode?: VuMode;
  /** Each second's point, as it is taken. */
  onProgress?: (point: SeriesPoint, live: LiveThreshold[], snapshot: () => PartialSnapshot) => void;
}

export interface SeriesPoint {
  /** Seconds since the start. */
  t: number;
  vus: number;
  requests: number;
  rps: number;
  failed: number;
  avgMs: number;
  p95Ms: number;
  iterations: number;
  checksFailed: number;
  dataReceived: number;
  dataSent: number;
}

export interface LiveThreshold {
  key: string;
  source: string;
  ok: boolean;
  actual: number | null;
}

/** What has been measured so far, in a form that merges (a runner sends it while running, so a lost runner's work still counts). */
export interface PartialSnapshot {
  metrics: ReturnType<MetricRegistry["snapshot"]>;
  rootGroup: GroupResult;
  errors: { message: string; count: number }[];
  durationMs: number;
}

export type LoadRunStatus = "passed" | "failed" | "aborted" | "stopped";

export interface LoadRunResult {
  status: LoadRunStatus;
  /** Why the run failed or was aborted, in a sentence. */
  reason?: string;
  durationMs: number;
  summary: SummaryData;
  summaryText: string;
  thresholds: LiveThreshold[];
  series: SeriesPoint[];
  errors: { message: string; count: number }[];
  logs: string[];
  /** handleSummary(data)'s outputs, when the script exports it. */
  handleSummary?: Record<string, string>;
  /** How the VUs ran: in shared isolates, or each in its own and why. */
  engine?: string;
  metrics: ReturnType<MetricRegistry["snapshot"]>;
}

/** Below this many VUs per thread a worker costs more (its start, its own client) than it brings. */
export const MIN_VUS_PER_WORKER = 8;
/**
 * One event loop per two cores: a loop sending requests keeps about as much
 * CPU again busy in its VUs' isolate threads (their JavaScript, the thread
 * hand-offs, V8's compilers), so on two cores one loop already fills both
 * (measured in docs/decisions.md, "Load engine: worker threads").
 */
export const DEFAULT_WORKERS = Math.max(1, Math.floor(os.availableParallelism() / 2));
const MAX_ERRORS_LISTED = 50;

/** How many worker threads a run gets: 0 runs its VUs in the engine's thread. */
function workersFor(requested: number | undefined, scenarios: Scenario[]): number {
  const vus = scenarios.reduce((n, s) => n + maxVusOf(s), 0);
  const n = Math.min(requested ?? DEFAULT_WORKERS, Math.floor(vus / MIN_VUS_PER_WORKER));
  return n >= 2 ? n : 0;
}

export type VuMode = "shared" | "isolate";

/** The rewritten script the VUs run in shared isolates, or why they each get an isolate (the run's first log line says which). */
function sharedSource(input: LoadRunInput): { source?: string; note: string; refused?: boolean } {
  const mode = input.vuMode ?? (process.env.LOAD_VU_MODE === "isolate" ? "isolate" : "shared");
  if (mode === "isolate") return { note: "one isolate per VU (asked for)" };
  const r = toAsyncScript(input.source);
  if (r.ok) return { source: r.source, note: "VUs share isolates" };
  return { refused: true, note: `one isolate per VU: the script cannot run with VUs sharing an isolate (${r.reason}${r.line ? `, line ${r.line}` : ""})` };
}

export async function runLoadTest(input: LoadRunInput): Promise<LoadRunResult> {
  const problem = await checkScript(input.source);
  if (problem) throw new LoadInputError(problem.message, { field: "script", line: problem.line, column: problem.column, module: problem.module });

  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const registry = new MetricRegistry();
  const groups = new GroupTree();
  const errors = new Map<string, number>();
  const logs: string[] = [];
  const maxLogLines = input.limits?.maxLogLines ?? 1000;
  const shared = new Map<string, string>();
  let status: LoadRunStatus = "passed";
  let reason: string | undefined;
  let aborted = false;
  let stopped = false;
  /** The part in this thread: all VUs, or none but VU 0's requests when the VUs run in workers. */
  let home: VuGroup | undefined;
  let parts: RunPart[] = [];
  let initVu: K6Vu | undefined;

  const noteError = (message: string, count = 1) => {
    if (errors.size < MAX_ERRORS_LISTED || errors.has(message)) errors.set(message, (errors.get(message) ?? 0) + count);
  };
  const fail = (why: string) => {
    if (status === "passed") {
      status = "failed";
      reason = why;
    }
  };
  const stopAll = () => {
    if (stopped) return;
    stopped = true;
    initVu?.stop();
    home?.stop();
    for (const p of parts) p.stop();
  };
  const abortRun = (why: string) => {
    if (aborted) return;
    aborted = true;
    status = "aborted";
    reason = why;
    stopAll();
  };
  const onOuterAbort = () => stopAll();
  input.signal?.addEventListener("abort", onOuterAbort);
  // A stop that came while the script was being checked.
  if (input.signal?.aborted) stopAll();

  // VU 0 reads the options, runs setup(), teardown() and handleSummary(), as k6's separate setup VU does.
  const initHost: VuHost = {
    http: (vu, requests, expected) => (home ? home.host.http(vu, requests, expected) : Promise.reject(new Error("http is not available in the init context"))),
    shared(name, json) {
      if (json !== undefined && !shared.has(name)) shared.set(name, json);
      return shared.get(name);
    },
    open(path, binary) {
      const key = path.replace(/^\.\//, "");
      const text = binary ? (input.binaryFiles?.[key] ?? (input.files?.[key] !== undefined ? Buffer.from(input.files[key]).toString("base64") : undefined)) : input.files?.[key];
      if (text === undefined) throw new Error(`open("${path}"): no such file was uploaded with the run`);
      return text;
    },
    log(vu, level, text) {
      if (logs.length < maxLogLines) logs.push(`${level} [VU ${vu}] ${text.slice(0, 2000)}`);
    },
    abort: (why) => abortRun(`test.abort(): ${why}`),
  };
  try {
    initVu = await K6Vu.create({ id: 0, source: input.source, env: input.env ?? {}, host: initHost, memoryMb: input.limits?.memoryMb });
  } catch (e) {
    input.signal?.removeEventListener("abort", onOuterAbort);
    if (e instanceof ScriptError) throw new LoadInputError(e.message, { field: "script", line: e.problem.line, column: e.problem.column, module: e.problem.module });
    throw e;
  }

  let thresholds: Threshold[] = [];
  let setupJson: string | undefined;
  const series: SeriesPoint[] = [];
  let live: LiveThreshold[] = [];
  /** The latest snapshot of each worker part (the engine's thread records into `registry` itself). */
  const partSnapshots: (GroupSnapshot | undefined)[] = [];
  const totals = { requests: 0 };
  let info: Awaited<ReturnType<K6Vu["info"]>> = { options: {}, functions: [], metrics: {} };
  let vuMode: ReturnType<typeof sharedSource> | undefined;
  try {
    info = await initVu.info();
    const plan = planFrom(info, input.options, registry);
    const options = plan.options;
    thresholds = plan.thresholds;
    const watches = thresholds.filter((t) => Object.keys(t.tags).length).map((t) => ({ metric: t.metric, key: t.key, tags: t.tags }));
    for (const w of watches) registry.get(w.metric)?.watch(w.key, w.tags);
    const scenarios = input.segment ? segmentScenarios(plan.scenarios, input.segment) : plan.scenarios;
    const counters = new RunCounters(undefined, scenarios.length);
    const sharedSlots: Record<string, number> = {};
    for (const s of scenarios) if (s.executor === "shared-iterations") sharedSlots[s.name] = counters.sharedIterations(s.iterations);
    const workers = workersFor(input.workers, scenarios);
    vuMode = sharedSource(input);
    // Said in the run's log too (where a user reads the run), as such a run drives less load per runner.
    if (vuMode.refused && logs.length < maxLogLines) logs.push(`warn [engine] ${vuMode.note}`);
    const base: Omit<GroupConfig, "scenarios" | "firstVuId"> = {
      source: input.source,
      asyncSource: vuMode.source,
      env: input.env ?? {},
      files: input.files,
      binaryFiles: input.binaryFiles,
      privatePolicy: input.privatePolicy,
      limits: input.limits,
      client: { hosts: options.hosts as Record<string, string> | undefined, insecureSkipTLSVerify: options.insecureSkipTLSVerify === true, maxRedirects: options.maxRedirects as number | undefined },
      // The SharedArrays VU 0's init code made: the VUs find them instead of making their own.
      shared: Object.fromEntries(shared),
      metrics: info.metrics,
      watches,
      counters: counters.buffer,
      sharedSlots,
    };
    home = new VuGroup({ ...base, scenarios: workers ? [] : scenarios, firstVuId: 1 }, abortRun, { registry, groups });

    if (info.functions.includes("setup")) {
      const r = await initVu.lifecycle("setup", undefined);
      recordSamples(r.samples, { scenario: "setup" });
      recordChecks(r.checks);
      if (r.error) {
        noteError(r.error);
        fail(`setup() failed: ${r.error.split("\n")[0]}`);
        throw new SetupFailed();
      }
      setupJson = r.value;
    }
    home.useSetupData(setupJson);

    if (workers) {
      const shares = splitScenarios(scenarios, workers);
      let firstVuId = 1;
      parts = await Promise.all(
        shares.map((share) => {
          const config: GroupConfig = { ...base, setupJson, scenarios: share, firstVuId };
          firstVuId += share.reduce((n, s) => n + maxVusOf(s), 0);
          return WorkerPart.start(config, abortRun);
        }),
      );
      if (stopped) for (const p of parts) p.stop();
    } else parts = [new LocalPart(home)];
    await Promise.all(parts.map((p) => p.prepare()));

    // Snapshots of the workers' registries are needed every second only for what reads the whole so far.
    const wantSnapshots = workers > 0 && (thresholds.length > 0 || !!input.onProgress);
    const takePoint = async () => {
      const reports = await Promise.all(parts.map((p) => p.tick(wantSnapshots)));
      const t = Math.round(elapsed() / 100) / 10;
      const durations: Aggregate = newAggregate("trend");
      const point: SeriesPoint = { t, vus: 0, requests: 0, rps: 0, failed: 0, avgMs: 0, p95Ms: 0, iterations: 0, checksFailed: 0, dataReceived: 0, dataSent: 0 };
      reports.forEach(({ tick, snapshot }, i) => {
        point.vus += tick.vus;
        point.rps += tick.requests;
        point.failed += tick.failed;
        point.iterations += tick.iterations;
        point.checksFailed += tick.checksFailed;
        point.dataReceived += tick.dataReceived;
        point.dataSent += tick.dataSent;
        durations.merge(tick.durations);
        if (snapshot) partSnapshots[i] = snapshot;
      });
      totals.requests += point.rps;
      point.requests = totals.requests;
      const v = durations.values(0);
      point.avgMs = v.avg ?? 0;
      point.p95Ms = v.percentile?.(95) ?? 0;
      series.push(point);
      const whole = workers ? merged() : { registry, groups, errors: [...errors, ...home!.outcome().errors] };
      const outcomes = evaluateThresholds(whole.registry, thresholds, elapsed());
      live = outcomes.map((o) => ({ key: o.threshold.key, source: o.threshold.source, ok: o.ok, actual: o.actual ?? null }));
      const fatal = outcomes.find((o) => !o.ok && o.threshold.abortOnFail && elapsed() >= o.threshold.delayAbortEvalMs);
      if (fatal) abortRun(`threshold "${fatal.threshold.key}: ${fatal.threshold.source}" failed with abortOnFail`);
      input.onProgress?.(point, live, () => ({ metrics: whole.registry.snapshot(), rootGroup: structuredClone(whole.groups.root), errors: errorList(whole.errors), durationMs: elapsed() }));
    };

    // A point a second from the start of the scenarios; a slow collection (workers busy) delays the next one, never doubles it.
    const zero = performance.now();
    let running = true;
    let wake: (() => void) | undefined;
    const clock = (async () => {
      for (let n = 1; running; n++) {
        await new Promise<void>((r) => {
          const t = setTimeout(r, Math.max(0, zero + n * 1000 - performance.now()));
          wake = () => {
            clearTimeout(t);
            r();
          };
        });
        if (running) await takePoint();
      }
    })();
    const startAt = performance.timeOrigin + zero;
    try {
      await Promise.all(parts.map((p) => p.run(startAt)));
    } finally {
      running = false;
      wake?.();
      await clock;
    }
    await takePoint();

    const finished = await Promise.all(parts.map((p) => p.finish()));
    finished.forEach(({ outcome, snapshot }, i) => {
      if (outcome.failure) fail(outcome.failure);
      if (snapshot) partSnapshots[i] = snapshot;
      for (const l of outcome.logs) if (logs.length < maxLogLines) logs.push(l);
    });
    // home's own errors are read at the end (it may still record teardown's).
    if (workers) for (const { outcome } of finished) for (const [m, c] of outcome.errors) noteError(m, c);
  } catch (e) {
    if (!(e instanceof SetupFailed)) {
      await cleanup();
      throw e;
    }
  }

  // A stop by the caller keeps what was measured.
  if (input.signal?.aborted && status === "passed") {
    status = "stopped";
    reason = "stopped by the user";
  }

  const setupFailed = reason?.startsWith("setup()") ?? false;
  if (!setupFailed && info.functions.includes("teardown")) {
    const r = await initVu.lifecycle("teardown", setupJson);
    recordSamples(r.samples, { scenario: "teardown" });
    recordChecks(r.checks);
    if (r.error) {
      noteError(r.error);
      fail(`teardown() failed: ${r.error.split("\n")[0]}`);
    }
  }
  if (home) {
    const own = home.outcome();
    if (own.failure) fail(own.failure);
    for (const [m, c] of own.errors) noteError(m, c);
  }

  const durationMs = elapsed();
  const whole = partSnapshots.length ? merged() : { registry, groups };
  const finalThresholds = evaluateThresholds(whole.registry, thresholds, durationMs).map((o) => ({ key: o.threshold.key, source: o.threshold.source, ok: o.ok, actual: o.actual ?? null }));
  if (status === "passed" && finalThresholds.some((t) => !t.ok)) {
    status = "failed";
    reason = `thresholds crossed: ${finalThresholds.filter((t) => !t.ok).map((t) => `${t.key}: ${t.source}`).join(", ")}`;
  }
  const summary = buildSummary({ registry: whole.registry, groups: whole.groups, thresholds, durationMs });
  let handleSummary: Record<string, string> | undefined;
  if (info.functions.includes("handleSummary")) {
    const r = await initVu.lifecycle("handleSummary", JSON.stringify(summary));
    if (r.error) noteError(`handleSummary() failed: ${r.error}`);
    else if (r.value) {
      const out = JSON.parse(r.value) as Record<string, unknown>;
      handleSummary = Object.fromEntries(Object.entries(out ?? {}).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
    }
  }
  await cleanup();
  return {
    status,
    reason,
    durationMs,
    summary,
    summaryText: summaryText(summary),
    thresholds: finalThresholds,
    series,
    errors: errorList(errors),
    logs,
    handleSummary,
    engine: vuMode?.note,
    metrics: whole.registry.snapshot(),
  };

  /** The whole run so far: this thread's registry with the workers' latest snapshots added. */
  function merged() {
    const r = new MetricRegistry();
    r.merge(registry.snapshot());
    const g = new GroupTree();
    g.merge(groups.root);
    const errs = new Map(errors);
    for (const s of partSnapshots) {
      if (!s) continue;
      r.merge(s.metrics);
      g.merge(s.rootGroup);
      for (const [m, c] of s.errors) errs.set(m, (errs.get(m) ?? 0) + c);
    }
    return { registry: r, groups: g, errors: [...errs] };
  }

  async function cleanup() {
    input.signal?.removeEventListener("abort", onOuterAbort);
    stopAll();
    initVu?.dispose();
    // home is parts[0] when the VUs ran in this thread.
    await Promise.all([...parts.map((p) => p.dispose()), parts[0] instanceof LocalPart ? undefined : home?.dispose(), initVu?.settled()]);
  }

  function recordSamples(samples: [string, number, Tags][], tags: Tags) {
    for (const [name, value, t] of samples) registry.add(name, value, { ...tags, ...t });
  }

  function recordChecks(checks: [string[], string, number, number][]) {
    for (const [path, name, passes, fails] of checks) groups.check(path, name, passes, fails);
  }
}

function errorList(errors: Iterable<[string, number]>): { message: string; count: number }[] {
  return [...errors].map(([message, count]) => ({ message, count }));
}

class SetupFailed extends Error {}
