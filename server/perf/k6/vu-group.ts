// A share of a run's VUs and the executors that drive them: the VUs' isolates,
// one HTTP client for them, the scenarios' executors, the CPU watchdog, and
// the metrics the share records. The engine runs one group in its own thread
// for a small run and one per worker thread (worker.ts) for a large one, and
// merges what the groups measured. Iterations run as leases (K6Vu.lease): a
// VU of constant-vus, per-vu-iterations, shared-iterations or ramping-vus
// goes from one iteration to the next without waiting for this thread; only
// the arrival-rate executors hand out iterations one at a time.
import { setMaxListeners } from "node:events";
import type { PrivatePolicy } from "@/server/lib/ssrf";
import { type AggregateSnapshot, type Metric, MetricRegistry, newAggregate, type Tags } from "../metrics";
import { GroupTree, type GroupResult } from "../summary";
import { LoadHttpClient, type SendMeter } from "./http-driver";
import { LoadInputError } from "./plan";
import { type ExecutorContext, runScenario } from "./executors";
import { maxVusOf, type Scenario } from "./scenarios";
import { SharedIsolate, SharedVu } from "./shared-isolate";
import { type ExpectedStatuses, type HostRequest, type HostResponse, type IterationResult, K6Vu, type LoadVu, RunCounters, ScriptError, type ScriptInfo, type VuHost } from "./vu";

const DEFAULT_ITERATION_CPU_MS = 30_000;
const MAX_ERRORS_LISTED = 50;

/** Everything a group needs to run its share; plain data, so it can be posted to a worker thread. */
export interface GroupConfig {
  source: string;
  /** The script rewritten to await its waits (async-script.ts): set, the VUs are contexts of shared isolates. */
  asyncSource?: string;
  env: Record<string, string>;
  files?: Record<string, string>;
  binaryFiles?: Record<string, string>;
  privatePolicy?: PrivatePolicy;
  limits?: { memoryMb?: number; iterationCpuMs?: number; maxLogLines?: number };
  client: { hosts?: Record<string, string>; insecureSkipTLSVerify?: boolean; maxRedirects?: number };
  /** This group's share of the scenarios. */
  scenarios: Scenario[];
  /** The group's VUs are numbered from here (each group has a range of its own, so __VU is unique in the run). */
  firstVuId: number;
  setupJson?: string;
  /** SharedArrays the init VU made: name → JSON. */
  shared: Record<string, string>;
  /** The script's custom metrics. */
  metrics: ScriptInfo["metrics"];
  /** Tag-filtered submetrics the thresholds read. */
  watches: { metric: string; key: string; tags: Tags }[];
  /** RunCounters' buffer, shared by every group of the run. */
  counters: SharedArrayBuffer;
  /** shared-iterations scenario → its RunCounters slot. */
  sharedSlots: Record<string, number>;
}

/** What a group measured in the last second (the engine adds the groups' up into one point). */
export interface GroupTick {
  vus: number;
  vusMax: number;
  requests: number;
  failed: number;
  iterations: number;
  checksFailed: number;
  dataSent: number;
  dataReceived: number;
  /** http_req_duration of the second. */
  durations: AggregateSnapshot;
}

export interface GroupSnapshot {
  metrics: ReturnType<MetricRegistry["snapshot"]>;
  rootGroup: GroupResult;
  errors: [message: string, count: number][];
}

export interface GroupOutcome {
  /** The first reason the run failed (an iteration threw, a VU was stopped). */
  failure?: string;
  errors: [message: string, count: number][];
  logs: string[];
}

interface VuSlot {
  vu: LoadVu;
  busy: boolean;
  dead: boolean;
  iterations: number;
  /** When the current iteration started (the previous one's result came). */
  lastAt: number;
  /** Results seen; the watchdog restarts a VU's CPU count when it moves. */
  results: number;
  scenario: Scenario;
}

export class VuGroup {
  readonly registry: MetricRegistry;
  readonly groups: GroupTree;
  readonly #config: GroupConfig;
  readonly #onAbort: (reason: string) => void;
  readonly #stop = new AbortController();
  readonly #client: LoadHttpClient;
  readonly #counters: RunCounters;
  readonly #slots = new Map<number, VuSlot>();
  readonly #pools = new Map<Scenario, VuSlot[]>();
  readonly #errors = new Map<string, number>();
  readonly #logs: string[] = [];
  readonly #sharedArrays: Map<string, string>;
  #nextId: number;
  #failure: string | undefined;
  #second = { agg: newAggregate("trend"), requests: 0, failed: 0, iterations: 0, checksFailed: 0 };
  #lastSent = 0;
  #lastReceived = 0;
  #watchdog: NodeJS.Timeout | undefined;
  readonly #http: Record<"reqs" | "duration" | "blocked" | "connecting" | "tls" | "sending" | "waiting" | "receiving" | "failed" | "sent" | "received" | "iterations" | "iterationDuration", Metric>;
  /** Submetrics filter on tags: only then are a request's tags worth building. */
  readonly #httpNeedsTags: boolean;
  readonly #scenarioTags = new Map<Scenario, Tags>();
  /** With `asyncSource`: the isolates the VUs are contexts of, the last one filling up. */
  readonly #isolates: SharedIsolate[] = [];
  #opening: Promise<SharedIsolate> | undefined;
  /** VUs the group's scenarios may hold at most (a new shared isolate is sized by what is left of it). */
  readonly #maxVus: number;

  /** `onAbort` gets the reason the run must stop now (a script called test.abort()). */
  constructor(config: GroupConfig, onAbort: (reason: string) => void, shared?: { registry: MetricRegistry; groups: GroupTree }) {
    this.#config = { ...config };
    this.#onAbort = onAbort;
    // Every in-flight request listens to it (one listener per client) and the executors' waits.
    setMaxListeners(0, this.#stop.signal);
    this.registry = shared?.registry ?? new MetricRegistry();
    this.groups = shared?.groups ?? new GroupTree();
    for (const [name, m] of Object.entries(config.metrics)) this.registry.define(name, m.type, m.isTime);
    for (const w of config.watches) this.registry.get(w.metric)?.watch(w.key, w.tags);
    this.#client = new LoadHttpClient({ privatePolicy: config.privatePolicy, ...config.client });
    this.#counters = new RunCounters(config.counters);
    this.#sharedArrays = new Map(Object.entries(config.shared));
    this.#nextId = config.firstVuId;
    const m = (name: string) => this.registry.get(name)!;
    this.#http = {
      reqs: m("http_reqs"),
      duration: m("http_req_duration"),
      blocked: m("http_req_blocked"),
      connecting: m("http_req_connecting"),
      tls: m("http_req_tls_handshaking"),
      sending: m("http_req_sending"),
      waiting: m("http_req_waiting"),
      receiving: m("http_req_receiving"),
      failed: m("http_req_failed"),
      sent: m("data_sent"),
      received: m("data_received"),
      iterations: m("iterations"),
      iterationDuration: m("iteration_duration"),
    };
    this.#httpNeedsTags = Object.values(this.#http).some((x) => x.submetrics.size > 0);
    for (const s of config.scenarios) this.#scenarioTags.set(s, { scenario: s.name, ...s.tags });
    this.#maxVus = config.scenarios.reduce((n, s) => n + maxVusOf(s), 0);
  }

  /** The host of this group's VUs, also lent to the engine's init VU (its setup() and teardown() requests are recorded here). */
  get host(): VuHost {
    return this.#host;
  }

  /** setup()'s result, handed to the VUs made from now on. */
  useSetupData(json: string | undefined): void {
    this.#config.setupJson = json;
  }

  /** Makes the VUs every scenario may hold before the clock starts (k6's "init VUs"); arrival-rate extras come on demand. */
  async prepare(): Promise<void> {
    for (const s of this.#config.scenarios) {
      const initial = s.executor === "constant-arrival-rate" || s.executor === "ramping-arrival-rate" ? s.preAllocatedVUs : maxVusOf(s);
      const pool: VuSlot[] = [];
      for (let i = 0; i < initial; i++) pool.push(await this.#makeSlot(s));
      this.#pools.set(s, pool);
    }
  }

  /** Runs the scenarios; `startAt` (epoch ms, performance.timeOrigin + now) is the run's zero, the same in every group. */
  async run(startAt: number): Promise<void> {
    const zero = startAt - performance.timeOrigin;
    const limit = this.#config.limits?.iterationCpuMs ?? DEFAULT_ITERATION_CPU_MS;
    const seen = new Map<VuSlot, { results: number; cpu: number }>();
    this.#watchdog = setInterval(() => {
      for (const slot of this.#slots.values()) {
        if (!slot.busy || slot.dead) {
          seen.delete(slot);
          continue;
        }
        const cpu = slot.vu.cpuMs();
        const last = seen.get(slot);
        // A new result since the last look: an iteration started since (within the last 250 ms of CPU).
        if (!last || last.results !== slot.results) seen.set(slot, { results: slot.results, cpu });
        else if (cpu - last.cpu > limit) {
          this.#killedForCpu.add(slot);
          slot.vu.kill();
        }
      }
    }, 250);
    try {
      const context: ExecutorContext<VuSlot> = {
        lease: (slot, s, count, until, sharedIndex) => this.#lease(slot, s, count, until, sharedIndex),
        makeSlot: (s) => this.#makeSlot(s),
        sleep: (ms) => this.#sleep(ms),
        stopped: this.#stop.signal,
        sharedSlot: (name) => this.#config.sharedSlots[name],
        claim: (index) => this.#counters.claim(index),
        dropped: (s) => this.registry.add("dropped_iterations", 1, { scenario: s.name }),
      };
      await Promise.all(this.#config.scenarios.map((s) => runScenario(s, this.#pools.get(s)!, zero, context)));
    } finally {
      clearInterval(this.#watchdog);
    }
  }

  /** Stops the share now: requests in flight are cut, sleeps end, no iteration starts. */
  stop(): void {
    this.#stop.abort();
    for (const slot of this.#slots.values()) slot.vu.stop();
  }

  /** The last second's counts; the `vus` gauges are recorded as they are read. */
  tick(): GroupTick {
    let vus = 0;
    for (const slot of this.#slots.values()) if (slot.busy) vus++;
    this.registry.add("vus", vus, {});
    this.registry.add("vus_max", this.#slots.size, {});
    const s = this.#second;
    const out: GroupTick = {
      vus,
      vusMax: this.#slots.size,
      requests: s.requests,
      failed: s.failed,
      iterations: s.iterations,
      checksFailed: s.checksFailed,
      dataSent: this.#client.bytesSent - this.#lastSent,
      dataReceived: this.#client.bytesReceived - this.#lastReceived,
      durations: s.agg.snapshot(),
    };
    this.#lastSent = this.#client.bytesSent;
    this.#lastReceived = this.#client.bytesReceived;
    this.#second = { agg: newAggregate("trend"), requests: 0, failed: 0, iterations: 0, checksFailed: 0 };
    return out;
  }

  snapshot(): GroupSnapshot {
    return { metrics: this.registry.snapshot(), rootGroup: this.groups.root, errors: [...this.#errors] };
  }

  outcome(): GroupOutcome {
    return { failure: this.#failure, errors: [...this.#errors], logs: this.#logs };
  }

  /** Ends every VU and the client; resolves when nothing of theirs is pending (a worker thread then ends cleanly). */
  async dispose(): Promise<void> {
    clearInterval(this.#watchdog);
    this.#stop.abort();
    for (const s of this.#slots.values()) s.vu.dispose();
    await Promise.all([...this.#slots.values()].map((s) => s.vu.settled()));
    await Promise.all(this.#isolates.map((i) => i.dispose()));
    await this.#client.close().catch(() => {});
  }

  // ------------------------------------------------------------ VUs

  readonly #host: VuHost = {
    http: (vuId, requests, expected) => {
      const scenario = this.#slots.get(vuId)?.scenario;
      if (requests.length === 1) return this.#sendAndRecord(requests[0], expected, scenario).then((r) => [r]);
      return Promise.all(requests.map((r) => this.#sendAndRecord(r, expected, scenario)));
    },
    shared: (name, json) => {
      if (json !== undefined && !this.#sharedArrays.has(name)) this.#sharedArrays.set(name, json);
      return this.#sharedArrays.get(name);
    },
    open: (path, binary) => {
      const { files, binaryFiles } = this.#config;
      const key = path.replace(/^\.\//, "");
      const text = binary ? (binaryFiles?.[key] ?? (files?.[key] !== undefined ? Buffer.from(files[key]).toString("base64") : undefined)) : files?.[key];
      if (text === undefined) throw new Error(`open("${path}"): no such file was uploaded with the run`);
      return text;
    },
    log: (vu, level, text) => {
      if (this.#logs.length < (this.#config.limits?.maxLogLines ?? 1000)) this.#logs.push(`${level} [VU ${vu}] ${text.slice(0, 2000)}`);
    },
    abort: (why) => this.#onAbort(`test.abort(): ${why}`),
  };

  async #makeSlot(s: Scenario): Promise<VuSlot> {
    const id = this.#nextId++;
    const env = { ...this.#config.env, ...s.env };
    let vu: LoadVu;
    try {
      const asyncSource = this.#config.asyncSource;
      if (asyncSource !== undefined) vu = await (await this.#sharedIsolate()).createVu(id, asyncSource, env);
      else vu = await K6Vu.create({ id, source: this.#config.source, env, host: this.#host, memoryMb: this.#config.limits?.memoryMb, counters: this.#counters });
    } catch (e) {
      if (e instanceof ScriptError) throw new LoadInputError(e.message, { field: "script", line: e.problem.line, column: e.problem.column, module: e.problem.module });
      throw e;
    }
    await vu.setData(this.#config.setupJson);
    if (this.#stop.signal.aborted) vu.stop();
    const slot: VuSlot = { vu, busy: false, dead: false, iterations: 0, lastAt: 0, results: 0, scenario: s };
    this.#slots.set(id, slot);
    return slot;
  }

  readonly #killedForCpu = new Set<VuSlot>();

  /** The shared isolate the next VU goes into: the last one while it has room, else a new one. */
  async #sharedIsolate(): Promise<SharedIsolate> {
    const last = this.#isolates.at(-1);
    if (last && !last.full && !last.dead) return last;
    this.#opening ??= SharedIsolate.create({
      capacity: this.#maxVus - this.#isolates.reduce((n, i) => n + i.capacity, 0),
      memoryMb: this.#config.limits?.memoryMb ?? 64,
      counters: this.#counters,
      host: this.#host,
    }).then(
      (made) => {
        this.#isolates.push(made);
        this.#opening = undefined;
        return made;
      },
      (e: unknown) => {
        this.#opening = undefined;
        throw e;
      },
    );
    return this.#opening;
  }

  /** Runs a lease on the slot's VU, recording each iteration as its result comes; resolves with how many ran. */
  async #lease(slot: VuSlot, s: Scenario, count: number, until: number, sharedIndex: number): Promise<number> {
    if (slot.dead) return 0;
    slot.busy = true;
    slot.lastAt = performance.now();
    const tags = this.#scenarioTags.get(s)!;
    let ran = 0;
    const account = (r: IterationResult) => {
      const now = performance.now();
      this.#recordSamples(r.samples, tags);
      this.#recordChecks(r.checks);
      if (r.error && !r.aborted) {
        this.#noteError(r.error);
        this.#fail(`an iteration threw: ${r.error.split("\n")[0]}`);
      }
      this.#http.iterations.add(1, tags);
      this.#http.iterationDuration.add(now - slot.lastAt, tags);
      this.#second.iterations++;
      slot.lastAt = now;
      slot.iterations++;
      slot.results++;
      ran++;
    };
    try {
      const last = await slot.vu.lease({ exec: s.exec, scenario: s.name, iter: slot.iterations, iterationInTest: this.#counters.nextIterationInTest(), until, count, sharedIndex }, account);
      account(last);
    } catch (e) {
      slot.dead = true;
      const limit = this.#config.limits?.iterationCpuMs ?? DEFAULT_ITERATION_CPU_MS;
      const stopped = slot.vu instanceof SharedVu ? `the ${slot.vu.shared.capacity > 1 ? "VUs sharing its isolate were" : `VU ${slot.vu.id} was`} stopped` : `VU ${slot.vu.id} was stopped`;
      const why = slot.vu.disposed && this.#killedForCpu.has(slot) ? `iteration exceeded its CPU limit (${limit / 1000}s); ${stopped}` : `VU ${slot.vu.id} stopped: ${(e as Error)?.message ?? e}`;
      this.#noteError(why);
      this.#fail(why);
      slot.vu.dispose();
    } finally {
      slot.busy = false;
    }
    return ran;
  }

  #sleep(ms: number): Promise<void> {
    const signal = this.#stop.signal;
    return new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const t = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(t);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });
  }

  // ------------------------------------------------------------ recording

  async #sendAndRecord(req: HostRequest, expected: ExpectedStatuses, scenario: Scenario | undefined): Promise<HostResponse> {
    const meter: SendMeter = { sent: 0, received: 0 };
    const res = await this.#client.send(req, this.#stop.signal, meter);
    // Each redirect hop is a request of its own in k6's metrics, tagged with its own URL and status.
    if (meter.hops) for (const h of meter.hops) this.#record(req, h.method, h.res, h.res.url, expected, scenario, h.sent, h.received);
    this.#record(req, meter.method ?? req.method, res, meter.hops ? res.url : req.url, expected, scenario, meter.sent, meter.received);
    return res;
  }

  #record(req: HostRequest, method: string, res: HostResponse, url: string, expected: ExpectedStatuses, scenario: Scenario | undefined, sent: number, received: number) {
    const isExpected = expected ? expected.some((x) => (typeof x === "number" ? res.status === x : res.status >= x.min && res.status <= x.max)) : res.status >= 200 && res.status < 400;
    let tags: Tags = NO_TAGS;
    if (this.#httpNeedsTags) {
      tags = {
        method,
        url: req.tags.name ?? url,
        name: req.tags.name ?? url,
        status: String(res.status),
        expected_response: String(isExpected),
        proto: res.proto,
        scenario: scenario?.name ?? "default",
        ...(scenario?.tags ?? {}),
        ...req.tags,
      };
      if (res.errorCode) tags.error_code = String(res.errorCode);
    }
    const t = res.timings;
    const m = this.#http;
    m.reqs.add(1, tags);
    m.duration.add(t.duration, tags);
    m.blocked.add(t.blocked, tags);
    m.connecting.add(t.connecting, tags);
    m.tls.add(t.tls_handshaking, tags);
    m.sending.add(t.sending, tags);
    m.waiting.add(t.waiting, tags);
    m.receiving.add(t.receiving, tags);
    m.failed.add(isExpected ? 0 : 1, tags);
    m.sent.add(sent, tags);
    m.received.add(received, tags);
    const second = this.#second;
    second.agg.add(t.duration);
    second.requests++;
    if (!isExpected) second.failed++;
  }

  #recordSamples(samples: [string, number, Tags][], base: Tags) {
    for (const [name, value, tags] of samples) {
      this.registry.add(name, value, { ...base, ...tags });
      if (name === "checks" && !value) this.#second.checksFailed++;
    }
  }

  #recordChecks(checks: [string[], string, number, number][]) {
    for (const [path, name, passes, fails] of checks) this.groups.check(path, name, passes, fails);
  }

  #noteError(message: string) {
    if (this.#errors.size < MAX_ERRORS_LISTED || this.#errors.has(message)) this.#errors.set(message, (this.#errors.get(message) ?? 0) + 1);
  }

  #fail(why: string) {
    this.#failure ??= why;
  }
}

const NO_TAGS: Tags = Object.freeze({}) as Tags;
