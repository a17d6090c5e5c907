// Runs a k6 script: its options become scenarios, each scenario's executor
// starts iterations on VUs (one isolate each), the host records k6's HTTP
// metrics as it sends, and every second a time-series point is taken and the
// thresholds are evaluated (abortOnFail stops the run). What comes out is
// k6's end-of-test summary plus the per-second series for charts and a
// metrics snapshot another runner's result can be merged with. Pure of the
// database: the web process and the runner agents both call runLoadTest.
import { setMaxListeners } from "node:events";
import type { PrivatePolicy } from "@/server/lib/ssrf";
import { MetricRegistry, newAggregate, type Tags } from "../metrics";
import { buildSummary, evaluateThresholds, type GroupResult, GroupTree, summaryText, type SummaryData } from "../summary";
import type { Threshold } from "../thresholds";
import { LoadHttpClient } from "./http-driver";
import { LoadInputError, planFrom } from "./plan";
import { arrivalsUntil, maxVusOf, rampAt, type Scenario, scenarioLengthMs, type Segment, segmentScenarios } from "./scenarios";

export { LoadInputError };
import { checkScript, type ExpectedStatuses, type HostRequest, type HostResponse, K6Vu, ScriptError, type VuHost } from "./vu";

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
  metrics: ReturnType<MetricRegistry["snapshot"]>;
}

const DEFAULT_ITERATION_CPU_MS = 30_000;
const MAX_ERRORS_LISTED = 50;

interface VuSlot {
  vu: K6Vu;
  busy: boolean;
  dead: boolean;
  iterations: number;
  cpuAtStart: number;
  scenario?: Scenario;
}

export async function runLoadTest(input: LoadRunInput): Promise<LoadRunResult> {
  const problem = await checkScript(input.source);
  if (problem) throw new LoadInputError(problem.message, { field: "script", line: problem.line, column: problem.column, module: problem.module });

  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const stop = new AbortController();
  // Every in-flight request and sleep listens to it: as many as there are VUs.
  setMaxListeners(0, stop.signal);
  const onOuterAbort = () => stop.abort();
  input.signal?.addEventListener("abort", onOuterAbort);
  // Made once the options are read (their `hosts` and `insecureSkipTLSVerify` configure it).
  let client = new LoadHttpClient({ privatePolicy: input.privatePolicy });
  const registry = new MetricRegistry();
  const groups = new GroupTree();
  const errors = new Map<string, number>();
  const logs: string[] = [];
  const maxLogLines = input.limits?.maxLogLines ?? 1000;
  const shared = new Map<string, string>();
  const slots = new Map<number, VuSlot>();
  let status: LoadRunStatus = "passed";
  let reason: string | undefined;
  let aborted = false;
  const second = { agg: newAggregate("trend"), requests: 0, failed: 0, iterations: 0, checksFailed: 0 };
  const totals = { requests: 0, failed: 0, iterations: 0, checksFailed: 0 };

  const noteError = (message: string) => {
    if (errors.size < MAX_ERRORS_LISTED || errors.has(message)) errors.set(message, (errors.get(message) ?? 0) + 1);
  };
  const fail = (why: string) => {
    if (status === "passed") {
      status = "failed";
      reason = why;
    }
  };

  /** The engine's own waits (scenario start times, executor ticks): over early when the run stops. */
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stop.signal.aborted) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        stop.signal.removeEventListener("abort", done);
        resolve();
      }
      stop.signal.addEventListener("abort", done, { once: true });
    });
  // A VU's sleep() waits in its own thread: the stop reaches it through its channel.
  stop.signal.addEventListener("abort", () => {
    for (const slot of slots.values()) slot.vu.stop();
  });

  const host: VuHost = {
    async http(vuId, requests, expected) {
      const slot = slots.get(vuId);
      const scenario = slot?.scenario;
      return Promise.all(requests.map((r) => sendAndRecord(r, expected, scenario)));
    },
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
    abort(why) {
      aborted = true;
      status = "aborted";
      reason = `test.abort(): ${why}`;
      stop.abort();
    },
  };

  async function sendAndRecord(req: HostRequest, expected: ExpectedStatuses, scenario: Scenario | undefined): Promise<HostResponse> {
    const sentBefore = client.bytesSent;
    const receivedBefore = client.bytesReceived;
    const res = await client.send(req, stop.signal);
    const isExpected = expected ? expected.some((x) => (typeof x === "number" ? res.status === x : res.status >= x.min && res.status <= x.max)) : res.status >= 200 && res.status < 400;
    const tags: Tags = {
      method: req.method,
      url: req.tags.name ?? req.url,
      name: req.tags.name ?? req.url,
      status: String(res.status),
      expected_response: String(isExpected),
      proto: res.proto,
      scenario: scenario?.name ?? "default",
      ...(scenario?.tags ?? {}),
      ...req.tags,
    };
    if (res.errorCode) tags.error_code = String(res.errorCode);
    const t = res.timings;
    registry.add("http_reqs", 1, tags);
    registry.add("http_req_duration", t.duration, tags);
    registry.add("http_req_blocked", t.blocked, tags);
    registry.add("http_req_connecting", t.connecting, tags);
    registry.add("http_req_tls_handshaking", t.tls_handshaking, tags);
    registry.add("http_req_sending", t.sending, tags);
    registry.add("http_req_waiting", t.waiting, tags);
    registry.add("http_req_receiving", t.receiving, tags);
    registry.add("http_req_failed", isExpected ? 0 : 1, tags);
    registry.add("data_sent", client.bytesSent - sentBefore, tags);
    registry.add("data_received", client.bytesReceived - receivedBefore, tags);
    second.agg.add(t.duration);
    second.requests++;
    totals.requests++;
    if (!isExpected) {
      second.failed++;
      totals.failed++;
    }
    return res;
  }

  const newVu = async (id: number, env: Record<string, string>) => {
    try {
      return await K6Vu.create({ id, source: input.source, env, host, memoryMb: input.limits?.memoryMb });
    } catch (e) {
      if (e instanceof ScriptError) throw new LoadInputError(e.message, { field: "script", line: e.problem.line, column: e.problem.column, module: e.problem.module });
      throw e;
    }
  };

  const baseEnv = input.env ?? {};
  // VU 0 reads the options, runs setup(), teardown() and handleSummary(), as k6's separate setup VU does.
  const initVu = await newVu(0, baseEnv);
  stop.signal.addEventListener("abort", () => initVu.stop());
  let scenarios: Scenario[];
  let thresholds: Threshold[];
  let setupJson: string | undefined;
  const series: SeriesPoint[] = [];
  let live: LiveThreshold[] = [];
  let ticker: NodeJS.Timeout | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  try {
    const info = await initVu.info();
    const plan = planFrom(info, input.options, registry);
    const options = plan.options;
    if (options.hosts || options.insecureSkipTLSVerify || options.maxRedirects !== undefined) {
      void client.close();
      client = new LoadHttpClient({
        privatePolicy: input.privatePolicy,
        hosts: options.hosts as Record<string, string> | undefined,
        insecureSkipTLSVerify: options.insecureSkipTLSVerify === true,
        maxRedirects: options.maxRedirects as number | undefined,
      });
    }
    scenarios = input.segment ? segmentScenarios(plan.scenarios, input.segment) : plan.scenarios;
    thresholds = plan.thresholds;
    for (const t of thresholds) if (Object.keys(t.tags).length) registry.get(t.metric)?.watch(t.key, t.tags);

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

    // The VUs every scenario may hold, made before the clock starts (k6's "init VUs"); arrival-rate extras on demand.
    let nextId = 1;
    const pools = new Map<Scenario, VuSlot[]>();
    for (const s of scenarios) {
      const initial = s.executor === "constant-arrival-rate" || s.executor === "ramping-arrival-rate" ? s.preAllocatedVUs : maxVusOf(s);
      const pool: VuSlot[] = [];
      for (let i = 0; i < initial; i++) pool.push(await makeSlot(nextId++, s));
      pools.set(s, pool);
    }

    async function makeSlot(id: number, s: Scenario): Promise<VuSlot> {
      const vu = await newVu(id, { ...baseEnv, ...s.env });
      await vu.setData(setupJson);
      const slot: VuSlot = { vu, busy: false, dead: false, iterations: 0, cpuAtStart: 0, scenario: s };
      slots.set(id, slot);
      return slot;
    }

    let iterationInTest = 0;
    async function iterate(slot: VuSlot, s: Scenario): Promise<void> {
      if (slot.dead) return;
      slot.busy = true;
      slot.cpuAtStart = slot.vu.cpuMs();
      const t0 = performance.now();
      const iter = slot.iterations++;
      const tags: Tags = { scenario: s.name, ...s.tags };
      try {
        const r = await slot.vu.iterate(s.exec, iter, iterationInTest++, s.name);
        recordSamples(r.samples, tags);
        recordChecks(r.checks);
        if (r.error && !r.aborted) {
          noteError(r.error);
          fail(`an iteration threw: ${r.error.split("\n")[0]}`);
        }
      } catch (e) {
        slot.dead = true;
        const why = slot.vu.isolate.isDisposed && killedForCpu.has(slot) ? `iteration exceeded its CPU limit (${(input.limits?.iterationCpuMs ?? DEFAULT_ITERATION_CPU_MS) / 1000}s); VU ${slot.vu.id} was stopped` : `VU ${slot.vu.id} stopped: ${(e as Error)?.message ?? e}`;
        noteError(why);
        fail(why);
        slot.vu.dispose();
        return;
      } finally {
        slot.busy = false;
      }
      registry.add("iterations", 1, tags);
      registry.add("iteration_duration", performance.now() - t0, tags);
      second.iterations++;
      totals.iterations++;
    }

    const killedForCpu = new Set<VuSlot>();
    const cpuLimit = input.limits?.iterationCpuMs ?? DEFAULT_ITERATION_CPU_MS;
    watchdog = setInterval(() => {
      for (const slot of slots.values()) {
        if (slot.busy && !slot.dead && slot.vu.cpuMs() - slot.cpuAtStart > cpuLimit) {
          killedForCpu.add(slot);
          slot.vu.dispose();
        }
      }
    }, 250);

    const activeVus = () => [...slots.values()].filter((s) => s.busy).length;
    let lastSent = 0;
    let lastReceived = 0;
    const takePoint = () => {
      const t = Math.round(elapsed() / 100) / 10;
      const v = second.agg.values(0);
      const vus = activeVus();
      registry.add("vus", vus, {});
      registry.add("vus_max", slots.size, {});
      const point: SeriesPoint = {
        t,
        vus,
        requests: totals.requests,
        rps: second.requests,
        failed: second.failed,
        avgMs: v.avg ?? 0,
        p95Ms: v.percentile?.(95) ?? 0,
        iterations: second.iterations,
        checksFailed: second.checksFailed,
        dataReceived: client.bytesReceived - lastReceived,
        dataSent: client.bytesSent - lastSent,
      };
      lastSent = client.bytesSent;
      lastReceived = client.bytesReceived;
      second.agg = newAggregate("trend");
      second.requests = second.failed = second.iterations = second.checksFailed = 0;
      series.push(point);
      live = evaluateThresholds(registry, thresholds, elapsed()).map((o) => ({ key: o.threshold.key, source: o.threshold.source, ok: o.ok, actual: o.actual ?? null }));
      const fatal = evaluateThresholds(registry, thresholds, elapsed()).find((o) => !o.ok && o.threshold.abortOnFail && elapsed() >= o.threshold.delayAbortEvalMs);
      if (fatal && !aborted) {
        aborted = true;
        status = "aborted";
        reason = `threshold "${fatal.threshold.key}: ${fatal.threshold.source}" failed with abortOnFail`;
        stop.abort();
      }
      input.onProgress?.(point, live, () => ({ metrics: registry.snapshot(), rootGroup: structuredClone(groups.root), errors: [...errors].map(([message, count]) => ({ message, count })), durationMs: elapsed() }));
    };
    ticker = setInterval(takePoint, 1000);

    await Promise.all(scenarios.map((s) => runScenario(s, pools.get(s)!)));
    clearInterval(ticker);
    ticker = undefined;
    takePoint();

    async function runScenario(s: Scenario, pool: VuSlot[]): Promise<void> {
      if (s.startTimeMs > 0) await sleep(s.startTimeMs);
      if (stop.signal.aborted) return;
      const begin = performance.now();
      const end = begin + scenarioLengthMs(s);
      const hardStop = end + s.gracefulStopMs;
      const running = () => !stop.signal.aborted && performance.now() < end;
      const inFlight = new Set<Promise<void>>();
      const track = (p: Promise<void>) => {
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      };
      switch (s.executor) {
        case "constant-vus":
          await Promise.all(pool.map(async (slot) => {
            while (running() && !slot.dead) await iterate(slot, s);
          }));
          break;
        case "per-vu-iterations":
          await Promise.all(pool.map(async (slot) => {
            for (let i = 0; i < s.iterations && running() && !slot.dead; i++) await iterate(slot, s);
          }));
          break;
        case "shared-iterations": {
          let left = s.iterations;
          await Promise.all(pool.map(async (slot) => {
            while (left > 0 && running() && !slot.dead) {
              left--;
              await iterate(slot, s);
            }
          }));
          break;
        }
        case "ramping-vus": {
          const active = new Set<VuSlot>();
          const loops = new Map<VuSlot, Promise<void>>();
          while (running()) {
            const target = Math.round(rampAt(s.startVUs, s.stages, performance.now() - begin));
            for (const slot of pool) {
              if (active.size >= target) break;
              if (active.has(slot) || slot.dead || loops.has(slot)) continue;
              active.add(slot);
              const loop = (async () => {
                while (active.has(slot) && running() && !slot.dead) await iterate(slot, s);
              })();
              loops.set(slot, loop);
              void loop.finally(() => loops.delete(slot));
            }
            // Ramping down: the newest VUs stop after their current iteration (gracefulRampDown).
            for (const slot of [...active].reverse()) {
              if (active.size <= target) break;
              active.delete(slot);
            }
            await sleep(50);
          }
          active.clear();
          await Promise.race([Promise.all(loops.values()), until(hardStop)]);
          break;
        }
        case "constant-arrival-rate":
        case "ramping-arrival-rate": {
          const ramp = s.executor === "ramping-arrival-rate" ? s.stages : [{ durationMs: s.durationMs, target: s.rate }];
          const startRate = s.executor === "ramping-arrival-rate" ? s.startRate : s.rate;
          let started = 0;
          let growing = 0;
          while (running()) {
            const due = Math.floor(arrivalsUntil(startRate, ramp, s.timeUnitMs, performance.now() - begin) + 1e-9);
            while (started < due) {
              started++;
              const free = pool.find((x) => !x.busy && !x.dead);
              if (free) {
                free.busy = true;
                track(iterate(free, s));
              } else if (pool.length + growing < s.maxVUs) {
                growing++;
                track(
                  makeSlot(nextIdNext(), s).then((slot) => {
                    growing--;
                    pool.push(slot);
                    return iterate(slot, s);
                  }),
                );
              } else registry.add("dropped_iterations", 1, { scenario: s.name });
            }
            const rate = rampAt(startRate, ramp, performance.now() - begin);
            await sleep(rate > 0 ? Math.min(10, Math.max(1, s.timeUnitMs / rate / 2)) : 10);
          }
          await Promise.race([Promise.all(inFlight), until(hardStop)]);
          break;
        }
      }
    }

    function nextIdNext() {
      return nextId++;
    }
  } catch (e) {
    if (!(e instanceof SetupFailed)) {
      cleanup();
      throw e;
    }
  }

  function until(at: number) {
    return sleep(Math.max(0, at - performance.now()));
  }

  // A stop by the caller keeps what was measured.
  if (input.signal?.aborted && status === "passed") {
    status = "stopped";
    reason = "stopped by the user";
  }

  const setupFailed = reason?.startsWith("setup()") ?? false;
  if (!setupFailed && (await initVu.info()).functions.includes("teardown")) {
    const r = await initVu.lifecycle("teardown", setupJson);
    recordSamples(r.samples, { scenario: "teardown" });
    recordChecks(r.checks);
    if (r.error) {
      noteError(r.error);
      fail(`teardown() failed: ${r.error.split("\n")[0]}`);
    }
  }

  const durationMs = elapsed();
  const finalThresholds = evaluateThresholds(registry, thresholds!, durationMs).map((o) => ({ key: o.threshold.key, source: o.threshold.source, ok: o.ok, actual: o.actual ?? null }));
  if (status === "passed" && finalThresholds.some((t) => !t.ok)) {
    status = "failed";
    reason = `thresholds crossed: ${finalThresholds.filter((t) => !t.ok).map((t) => `${t.key}: ${t.source}`).join(", ")}`;
  }
  const summary = buildSummary({ registry, groups, thresholds: thresholds!, durationMs });
  let handleSummary: Record<string, string> | undefined;
  if ((await initVu.info()).functions.includes("handleSummary")) {
    const r = await initVu.lifecycle("handleSummary", JSON.stringify(summary));
    if (r.error) noteError(`handleSummary() failed: ${r.error}`);
    else if (r.value) {
      const out = JSON.parse(r.value) as Record<string, unknown>;
      handleSummary = Object.fromEntries(Object.entries(out ?? {}).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
    }
  }
  cleanup();
  return {
    status,
    reason,
    durationMs,
    summary,
    summaryText: summaryText(summary),
    thresholds: finalThresholds,
    series,
    errors: [...errors].map(([message, count]) => ({ message, count })),
    logs,
    handleSummary,
    metrics: registry.snapshot(),
  };

  function cleanup() {
    if (ticker) clearInterval(ticker);
    if (watchdog) clearInterval(watchdog);
    input.signal?.removeEventListener("abort", onOuterAbort);
    stop.abort();
    for (const s of slots.values()) s.vu.dispose();
    initVu.dispose();
    void client.close();
  }

  function recordSamples(samples: [string, number, Tags][], base: Tags) {
    for (const [name, value, tags] of samples) {
      registry.add(name, value, { ...base, ...tags });
      if (name === "checks" && !value) {
        second.checksFailed++;
        totals.checksFailed++;
      }
    }
  }

  function recordChecks(checks: [string[], string, number, number][]) {
    for (const [path, name, passes, fails] of checks) groups.check(path, name, passes, fails);
  }
}

class SetupFailed extends Error {}
