// Inside a VU's isolate: the k6 modules a script imports ('k6', 'k6/http',
// 'k6/metrics', 'k6/data', 'k6/encoding', 'k6/execution') and the hooks the
// host calls. k6 scripts are synchronous (`http.get` returns the response):
// a call that waits for the host's I/O (HTTP, the next iteration's ticket)
// posts its request to the host's thread and blocks this isolate's thread on
// a shared channel until the host writes the answer there (channel.ts).
// In a shared isolate (a VU per context, ../shared-isolate.ts) the script
// was rewritten to await those calls (../async-script.ts): there they return
// promises that the isolate's hub (hub.ts) settles, and the VU's leases run
// here as async loops.
// Samples of checks and custom metrics are gathered per iteration and handed
// back with its result (one crossing per iteration, not one per sample); the
// host records the HTTP metrics itself, as it times the requests.
import { openChannel } from "./channel";
import { b64decode, b64encode } from "./encoding";
import { buildRequest, K6Response, type PackedResponse, type RequestParams } from "./http";

interface HostRef<A extends unknown[], R> {
  applySync(self: undefined, args: A, opts?: unknown): R;
  applyIgnored(self: undefined, args: A, opts?: unknown): void;
}

const g = globalThis as Record<string, unknown>;
const take = <T>(name: string): T => {
  const v = g[name] as T;
  delete g[name];
  return v;
};
/** Set in a shared isolate: the hub context's object every VU context of the isolate calls. */
const hub = take<Hub | undefined>("__k6_hub");
const hostHttp = take<HostRef<[string], void>>("__k6_http");
const hostShared = take<HostRef<[string, string | undefined], string | undefined>>("__k6_shared");
const hostOpen = take<HostRef<[string, boolean], string>>("__k6_open");
const hostLog = take<HostRef<[string, string], void>>("__k6_log");
const hostAbort = take<HostRef<[string], void>>("__k6_abort");
const hostExpected = take<HostRef<[string], void>>("__k6_expected");
const hostNext = take<HostRef<[string], void>>("__k6_next");
const hostReport = take<HostRef<[string], void>>("__k6_report");
/** The run's counters, shared by every VU: [0] the next iterationInTest, [1…] shared-iterations left per scenario. */
const counters = new Int32Array(take<SharedArrayBuffer>("__k6_counters"));
const channelBuffer = take<SharedArrayBuffer | undefined>("__k6_channel");
const channelTake = take<HostRef<[], string>>("__k6_take");
const channel = channelBuffer ? openChannel(channelBuffer, channelTake) : undefined;

interface Hub {
  register(vu: number, port: VuPort): void;
  send(vu: number, requests: unknown[], done: (answer: unknown) => void): void;
  request(vu: number, method: string, url: unknown, body: unknown, params: RequestParams | undefined, group: string, resolve: (r: K6Response) => void, reject: (e: unknown) => void): void;
  sleep(ms: number, done: (answer: unknown) => void): void;
  build: typeof buildRequest;
}

/** What the hub's lease loop (hub.ts LeaseRun) uses of this VU's context. */
interface VuPort {
  state: typeof state;
  begin(iter: number, iterationInTest: number, scenario: string): void;
  exported(name: string): unknown;
  outcome(error?: unknown): IterationOutcome | 0;
  error(message: string): Error;
  Response: typeof K6Response;
  counters: Int32Array;
}

interface IterationOutcome {
  samples: Sample[];
  checks: [string[], string, number, number][];
  error?: string;
  aborted: boolean;
}

delete g.SharedArrayBuffer;
delete g.WebAssembly;

type Tags = Record<string, string>;
type Sample = [metric: string, value: number, tags: Tags];

class AbortIteration extends Error {}

const state = {
  vu: 0,
  iter: 0,
  scenario: "default",
  iterationInTest: 0,
  inInit: true,
  /** test.abort() was called: the lease ends with this iteration. */
  testAborted: false,
  groupPath: [] as string[],
  samples: [] as Sample[],
  checks: new Map<string, [string[], string, number, number]>(),
  metricTypes: {} as Record<string, { type: string; isTime: boolean }>,
  env: {} as Record<string, string>,
  data: undefined as unknown,
  dataJson: undefined as string | undefined,
};

function groupTag(): string {
  return state.groupPath.length ? `::${state.groupPath.join("::")}` : "";
}

function stringify(v: unknown): string {
  if (typeof v === "string") return v;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

function log(level: string, args: unknown[]) {
  hostLog.applyIgnored(undefined, [level, args.map(stringify).join(" ")]);
}

g.console = {
  log: (...a: unknown[]) => log("info", a),
  info: (...a: unknown[]) => log("info", a),
  debug: (...a: unknown[]) => log("debug", a),
  warn: (...a: unknown[]) => log("warn", a),
  error: (...a: unknown[]) => log("error", a),
};

function check(value: unknown, sets: Record<string, unknown>, tags?: Tags): boolean {
  let all = true;
  const group = groupTag();
  for (const name in sets ?? {}) {
    if (!Object.hasOwn(sets, name)) continue;
    const cond = sets[name];
    // k6: an exception in a check function is the iteration's exception (it propagates).
    const ok = !!(typeof cond === "function" ? cond(value) : cond);
    all &&= ok;
    const key = `${group}::${name}`;
    let entry = state.checks.get(key);
    if (entry === undefined) {
      entry = [state.groupPath.slice(), name, 0, 0];
      state.checks.set(key, entry);
    }
    if (ok) entry[2]++;
    else entry[3]++;
    state.samples.push(["checks", ok ? 1 : 0, tags ? { ...tags, check: name, group } : { check: name, group }]);
  }
  return all;
}

function group<T>(name: string, fn: () => T): T {
  if (state.inInit) throw new Error("group() can only be called inside a VU function, not in the init context");
  if (name.includes("::")) throw new Error("group and check names may not contain '::'");
  state.groupPath.push(name);
  const started = Date.now();
  const end = () => {
    state.samples.push(["group_duration", Date.now() - started, { group: groupTag() }]);
    state.groupPath.pop();
  };
  let out: T;
  try {
    out = fn();
  } catch (e) {
    end();
    throw e;
  }
  // Rewritten for a shared isolate, a group whose function waits is awaited: it ends when that function's promise does.
  const pending = out as { then?: unknown };
  if (hub && pending && typeof pending.then === "function") {
    return (out as Promise<unknown>).then(
      (v) => {
        end();
        return v;
      },
      (e: unknown) => {
        end();
        throw e;
      },
    ) as T;
  }
  end();
  return out;
}

function sleep(seconds: number): void | Promise<unknown> {
  if (state.inInit) throw new Error("sleep() can only be called inside a VU function, not in the init context");
  const ms = Number(seconds) * 1000;
  if (!(ms > 0)) return;
  if (hub) return new Promise((resolve) => hub.sleep(ms, resolve));
  channel!.sleep(ms);
}

function fail(message?: string): never {
  throw new Error(message ?? "fail() was called");
}

function defineMetric(type: string) {
  return class Metric {
    readonly name: string;
    constructor(name: string, isTime = false) {
      if (!state.inInit) throw new Error("metrics must be declared in the init context");
      const known = state.metricTypes[name];
      if (known && known.type !== type) throw new Error(`metric "${name}" is already a ${known.type}`);
      state.metricTypes[name] = { type, isTime: !!isTime };
      this.name = name;
    }
    add(value: number | boolean, tags?: Tags) {
      if (state.inInit) throw new Error("metrics can only be added to inside a VU function");
      state.samples.push([this.name, typeof value === "boolean" ? (value ? 1 : 0) : Number(value), { ...(tags ?? {}), group: groupTag() }]);
      return true;
    }
  };
}

type Sent = K6Response[] | Promise<K6Response[]>;

/** On the responses now (a VU of its own isolate) or when they come (a shared isolate's VU). */
function then<T>(sent: Sent, fn: (responses: K6Response[]) => T): T | Promise<T> {
  return Array.isArray(sent) ? fn(sent) : sent.then(fn);
}

/** The hub's in a shared isolate (optimised once for all its VUs), this context's own otherwise. */
const build = hub ? hub.build : buildRequest;

function http(method: string, url: unknown, body: unknown, params: RequestParams | undefined) {
  if (state.inInit) throw new Error(`http.${method.toLowerCase()}() can only be called inside a VU function, not in the init context`);
  // One promise for the one response, the request built by the hub (this is the hot path of a shared isolate's VU).
  if (hub) return new Promise<K6Response>((resolve, reject) => hub.request(state.vu, method, url, body, params, groupTag(), resolve, reject));
  return (send([buildRequest(method, url, body, params, groupTag())]) as K6Response[])[0];
}

function send(requests: ReturnType<typeof buildRequest>[]): Sent {
  const responses = (out: PackedResponse[]) => out.map((r, i) => new K6Response(r, requests[i]));
  if (hub) {
    return new Promise((resolve, reject) =>
      hub.send(state.vu, requests, (answer) => (typeof answer === "string" ? reject(new Error(answer)) : resolve(responses(answer as PackedResponse[])))),
    );
  }
  return responses(JSON.parse(channel!.call(hostHttp, JSON.stringify(requests))) as PackedResponse[]);
}

function batch(list: unknown) {
  if (state.inInit) throw new Error("http.batch() can only be called inside a VU function");
  const entries = Array.isArray(list) ? list.map((v, i) => [String(i), v] as const) : Object.entries(list as Record<string, unknown>);
  const built = entries.map(([, v]) => {
    if (typeof v === "string") return build("GET", v, null, undefined, groupTag());
    if (Array.isArray(v)) return build(String(v[0]), v[1], v[2], v[3] as RequestParams, groupTag());
    const o = v as { method?: string; url: unknown; body?: unknown; params?: RequestParams };
    return build(o.method ?? "GET", o.url, o.body, o.params, groupTag());
  });
  return then(send(built), (responses) => (Array.isArray(list) ? responses : Object.fromEntries(entries.map(([k], i) => [k, responses[i]]))));
}

const httpModule = {
  get: (url: unknown, params?: RequestParams) => http("GET", url, null, params),
  head: (url: unknown, params?: RequestParams) => http("HEAD", url, null, params),
  options: (url: unknown, body?: unknown, params?: RequestParams) => http("OPTIONS", url, body, params),
  post: (url: unknown, body?: unknown, params?: RequestParams) => http("POST", url, body, params),
  put: (url: unknown, body?: unknown, params?: RequestParams) => http("PUT", url, body, params),
  patch: (url: unknown, body?: unknown, params?: RequestParams) => http("PATCH", url, body, params),
  del: (url: unknown, body?: unknown, params?: RequestParams) => http("DELETE", url, body, params),
  request: (method: string, url: unknown, body?: unknown, params?: RequestParams) => http(String(method).toUpperCase(), url, body, params),
  batch,
  url: (strings: TemplateStringsArray, ...values: unknown[]) => {
    const text = strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]) : ""), "");
    return { __k6url: true, url: text, name: strings.join("${}") };
  },
  // k6 accepts only expectedStatuses() as a response callback; the host applies its ranges (it records http_req_failed).
  expectedStatuses: (...ranges: (number | { min: number; max: number })[]) => {
    for (const r of ranges) {
      if (typeof r !== "number" && !(r && typeof r.min === "number" && typeof r.max === "number")) throw new Error("expectedStatuses takes status codes or {min, max} ranges");
    }
    const cb = (r: { status: number }) => ranges.some((x) => (typeof x === "number" ? r.status === x : r.status >= x.min && r.status <= x.max));
    return Object.assign(cb, { __k6ranges: ranges });
  },
  setResponseCallback: (cb: unknown) => {
    if (cb !== null && cb !== undefined && !(cb as { __k6ranges?: unknown }).__k6ranges) throw new Error("setResponseCallback takes http.expectedStatuses(...) or null");
    hostExpected.applySync(undefined, [JSON.stringify(cb ? (cb as unknown as { __k6ranges: unknown }).__k6ranges : null)]);
  },
  // Constants scripts compare against.
  TLS_1_2: "tls1.2",
  TLS_1_3: "tls1.3",
  OCSP_STATUS_GOOD: "good",
};

class SharedArray<T> {
  constructor(name: string, fn: () => T[]) {
    if (!state.inInit) throw new Error("SharedArray can only be created in the init context");
    if (typeof fn !== "function") throw new Error("SharedArray needs a function that returns an array");
    const cached = hostShared.applySync(undefined, [name, undefined]);
    let data: T[];
    if (cached !== undefined) data = JSON.parse(cached) as T[];
    else {
      data = fn();
      if (!Array.isArray(data)) throw new Error("the SharedArray function must return an array");
      hostShared.applySync(undefined, [name, JSON.stringify(data)]);
    }
    // Read-only, as in k6: the array is shared between VUs.
    return Object.freeze(data.map((x) => deepFreeze(x))) as unknown as SharedArray<T>;
  }
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === "object") {
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
    Object.freeze(v);
  }
  return v;
}

g.open = (path: string, mode?: string) => {
  if (!state.inInit) throw new Error("open() can only be called in the init context");
  const binary = mode === "b";
  const text = hostOpen.applySync(undefined, [String(path), binary]);
  if (!binary) return text;
  const bytes = b64decode(text, "std");
  return bytes;
};

const execution = {
  get vu() {
    return { idInTest: state.vu, idInInstance: state.vu, iterationInInstance: state.iter, iterationInScenario: state.iter, tags: {} };
  },
  get scenario() {
    return { name: state.scenario, iterationInTest: state.iterationInTest, iterationInInstance: state.iter, executor: "" };
  },
  test: {
    abort: (reason?: string) => {
      state.testAborted = true;
      hostAbort.applyIgnored(undefined, [reason ?? "test aborted by the script"]);
      throw new AbortIteration(reason ?? "test aborted");
    },
    get options() {
      return {};
    },
  },
};

const modules: Record<string, Record<string, unknown>> = {
  k6: { check, group, sleep, fail, randomSeed: () => {} },
  "k6/http": httpModule,
  "k6/metrics": { Counter: defineMetric("counter"), Gauge: defineMetric("gauge"), Rate: defineMetric("rate"), Trend: defineMetric("trend") },
  "k6/data": { SharedArray },
  "k6/encoding": { b64encode, b64decode },
  "k6/execution": execution,
};

// The modules the host's re-export shims read (modules.ts moduleSource).
g.__k6modules = modules;

let script: Record<string, unknown> = {};

function resetIteration() {
  // Fresh ones only when used: outcome() handed the old ones over (an iteration that recorded nothing allocates nothing here).
  if (state.samples.length) state.samples = [];
  if (state.checks.size) state.checks = new Map();
  if (state.groupPath.length) state.groupPath = [];
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.stack && e.stack.includes("script.js") ? e.stack.split("\n").filter((l) => !l.includes("k6-runtime.js") && !l.includes("k6-hub.js")).join("\n") : `${e.name}: ${e.message}`;
  return String(e);
}

// Frozen: a result holding them may wait in the hub while the next iteration records.
const NO_CHECKS: IterationOutcome["checks"] = Object.freeze([]) as unknown as IterationOutcome["checks"];
const NO_SAMPLES: Sample[] = Object.freeze([]) as unknown as Sample[];

function outcome(error?: unknown): IterationOutcome {
  const result = {
    samples: state.samples.length ? state.samples : NO_SAMPLES,
    checks: state.checks.size ? [...state.checks.values()] : NO_CHECKS,
    error: error === undefined ? undefined : errorText(error),
    aborted: error instanceof AbortIteration,
  };
  resetIteration();
  return result;
}

function collect(error?: unknown) {
  return JSON.stringify(outcome(error));
}

/** Starts an iteration: its numbers in the state, nothing recorded yet. */
function begin(iter: number, iterationInTest: number, scenario: string) {
  state.iter = iter;
  state.iterationInTest = iterationInTest;
  state.scenario = scenario;
  g.__ITER = iter;
  resetIteration();
}

async function runIteration(exec: string, iter: number, iterationInTest: number, scenario: string): Promise<IterationOutcome> {
  begin(iter, iterationInTest, scenario);
  try {
    await call(exec, state.data);
    return outcome();
  } catch (e) {
    return outcome(e);
  }
}

/** This VU's side of the hub's lease loop. */
const port: VuPort = {
  state,
  begin,
  exported: (name) => script[name],
  outcome(error) {
    const result = outcome(error);
    return result.samples.length || result.checks.length || result.error !== undefined || result.aborted ? result : 0;
  },
  error: (message) => new Error(message),
  Response: K6Response,
  counters,
};

function call(name: string, arg: unknown): unknown {
  const fn = script[name];
  if (typeof fn !== "function") throw new Error(`the script exports no function "${name}"`);
  return (fn as (a: unknown) => unknown)(arg);
}

g.__k6rt = {
  modules,
  /** After the script's init code ran: what the host needs to plan the run. */
  attach(ns: Record<string, unknown>) {
    script = ns;
  },
  info(): string {
    const exported = Object.keys(script).filter((k) => typeof script[k] === "function");
    return JSON.stringify({ options: script.options ?? {}, functions: exported, metrics: state.metricTypes });
  },
  configure(vu: number, envJson: string) {
    state.vu = vu;
    state.env = JSON.parse(envJson) as Record<string, string>;
    g.__VU = vu;
    g.__ENV = state.env;
    if (hub) hub.register(vu, port);
  },
  startInit() {
    state.inInit = true;
  },
  endInit() {
    state.inInit = false;
  },
  setData(json: string | undefined) {
    state.dataJson = json;
    state.data = json === undefined ? undefined : JSON.parse(json);
  },
  async iterate(exec: string, iter: number, iterationInTest: number, scenario: string): Promise<string> {
    return JSON.stringify(await runIteration(exec, iter, iterationInTest, scenario));
  },
  /**
   * The VU's iterations in one call from the host. Each turn hands the last
   * result over and takes the next ticket: [exec, iter, iterationInTest,
   * scenario, until, count, sharedIndex] ("" ends the loop). A ticket is a
   * lease: up to `count` iterations (-1: no limit) while the run goes on, the
   * VU is active and `until` (epoch ms) is ahead, each but the first claiming
   * one of the scenario's shared iterations when `sharedIndex` ≥ 0; results
   * within a lease go to the host without waiting for it. So a VU of
   * constant-vus waits for the host only for its requests, not between
   * iterations.
   */
  async loop(): Promise<void> {
    const rt = g.__k6rt as { iterate(exec: string, iter: number, inTest: number, scenario: string): Promise<string> };
    const ch = channel!;
    let report = "";
    for (;;) {
      const ticket = ch.call(hostNext, report);
      if (!ticket) return;
      const [exec, firstIter, firstInTest, scenario, until, count, sharedIndex] = JSON.parse(ticket) as [string, number, number, string, number, number, number];
      let iter = firstIter;
      let inTest = firstInTest;
      for (let left = count; ; ) {
        report = await rt.iterate(exec, iter, inTest, scenario);
        left--;
        if (left === 0 || state.testAborted || !ch.mayContinue(until)) break;
        if (sharedIndex >= 0 && Atomics.sub(counters, sharedIndex, 1) <= 0) break;
        hostReport.applyIgnored(undefined, [report]);
        iter++;
        inTest = Atomics.add(counters, 0, 1);
      }
    }
  },
  /** setup() / teardown(data) / handleSummary(data): their result as JSON, or the error. */
  async lifecycle(name: string, argJson: string | undefined): Promise<string> {
    resetIteration();
    try {
      const value = await call(name, argJson === undefined ? undefined : JSON.parse(argJson));
      const out = JSON.parse(collect()) as Record<string, unknown>;
      out.value = value === undefined ? undefined : JSON.stringify(value);
      return JSON.stringify(out);
    } catch (e) {
      return collect(e);
    }
  },
};
