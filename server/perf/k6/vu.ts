// One k6 virtual user: an isolate of its own (memory-limited, its CPU per
// iteration watched) holding the k6 modules and the user's script as an ES
// module. The host side of its synchronous calls (HTTP, open, SharedArray) is
// a VuHost, so the same VU runs in the web process, a worker thread or a
// runner agent. Calls that wait for I/O go through the VU's channel
// (channel-host.ts), which also carries the iteration tickets.
import path from "node:path";
import ivm from "isolated-vm";
import { type IsolateBundle, isolateBundle } from "@/server/lib/isolate-bundle";
import { ChannelHost } from "./channel-host";
import { type HostRequest, type HostResponse, packResponses } from "./isolate/http";
import { moduleSource, SUPPORTED_MODULES, unsupportedModule } from "./modules";

export const SCRIPT_FILENAME = "script.js";
const RUNTIME_FILENAME = "k6-runtime.js";

/** Set in a worker thread's bundle (worker-pool.ts): the runtime's code, so the worker does not bundle it again. */
declare const __K6_RUNTIME_CODE__: string | undefined;

const runtime: IsolateBundle =
  typeof __K6_RUNTIME_CODE__ === "string"
    ? prebuiltBundle(__K6_RUNTIME_CODE__, RUNTIME_FILENAME)
    : isolateBundle({
        entry: "server/perf/k6/isolate/entry.ts",
        near: import.meta.dirname && path.join(import.meta.dirname, "isolate", "entry.ts"),
        filename: RUNTIME_FILENAME,
      });

/** The isolate runtime's code, for a worker thread's bundle. */
export function runtimeCode(): Promise<string> {
  return runtime.code();
}

/** An isolate bundle from code already bundled (in a worker thread), with V8's compile cache taken from the first isolate as isolateBundle does. */
export function prebuiltBundle(code: string, filename: string): IsolateBundle {
  type Cached = ivm.Script & ivm.CachedDataResult & { cachedDataRejected?: boolean };
  let cachedData: ivm.ExternalCopy<ArrayBuffer> | undefined;
  return {
    code: async () => code,
    async compile(isolate) {
      if (cachedData) {
        const script = (await isolate.compileScript(code, { filename, cachedData })) as Cached;
        if (!script.cachedDataRejected) return script;
      }
      const script = (await isolate.compileScript(code, { filename, produceCachedData: true })) as Cached;
      if (script.cachedData) cachedData = script.cachedData;
      return script;
    },
  };
}

export type { HostRequest, HostResponse };

/** What a VU asks of the process it runs in. */
export interface VuHost {
  http(vu: number, requests: HostRequest[], expected: ExpectedStatuses): Promise<HostResponse[]>;
  /** Not called: a VU's sleep() waits on its own thread (its channel ends it when the run stops). */
  sleep?(ms: number): Promise<void>;
  /** SharedArray: the JSON of `name` when a VU made it already; `json` given stores it. */
  shared(name: string, json: string | undefined): string | undefined;
  /** open(): the file's text, or base64 of its bytes when `binary`. Throws when there is none. */
  open(path: string, binary: boolean): string;
  log(vu: number, level: string, text: string): void;
  abort(reason: string): void;
}

/** null: k6's default (200–399 is expected). */
export type ExpectedStatuses = (number | { min: number; max: number })[] | null;

export interface ScriptProblem {
  message: string;
  line?: number;
  column?: number;
  /** The module an import named, when that is the problem. */
  module?: string;
}

export class ScriptError extends Error {
  constructor(readonly problem: ScriptProblem) {
    super(problem.line ? `${problem.message} (line ${problem.line}, column ${problem.column})` : problem.message);
  }
}

/** "Unexpected token '*' [script.js:2:4]" → the message, line and column. */
function located(e: unknown): ScriptProblem {
  const raw = (e as Error)?.message ?? String(e);
  const at = /\s*\[script\.js:(\d+):(\d+)\]$/.exec(raw);
  return at ? { message: `SyntaxError: ${raw.slice(0, at.index)}`, line: Number(at[1]), column: Number(at[2]) } : { message: raw };
}

export interface IterationResult {
  samples: [metric: string, value: number, tags: Record<string, string>][];
  checks: [groupPath: string[], name: string, passes: number, fails: number][];
  error?: string;
  aborted?: boolean;
  /** lifecycle(): the function's result as JSON. */
  value?: string;
}

export interface ScriptInfo {
  options: Record<string, unknown>;
  functions: string[];
  metrics: Record<string, { type: "counter" | "gauge" | "rate" | "trend"; isTime: boolean }>;
}

export interface VuOptions {
  id: number;
  source: string;
  env: Record<string, string>;
  host: VuHost;
  memoryMb?: number;
  /** The run's counters (see RunCounters); a VU of its own gets private ones. */
  counters?: RunCounters;
}

/**
 * Counters every VU of a run shares (across worker threads too): the next
 * iterationInTest, and per shared-iterations scenario the iterations left.
 */
export class RunCounters {
  readonly buffer: SharedArrayBuffer;
  readonly #slots: Int32Array;
  #nextShared = 1;
  /** `scenarios`: how many shared-iterations slots a new buffer has room for. */
  constructor(buffer?: SharedArrayBuffer, scenarios = 0) {
    this.buffer = buffer ?? new SharedArrayBuffer(4 * (1 + scenarios));
    this.#slots = new Int32Array(this.buffer);
  }

  nextIterationInTest(): number {
    return Atomics.add(this.#slots, 0, 1);
  }

  /** A slot holding `n` iterations to share out; its index goes into leases. */
  sharedIterations(n: number): number {
    const index = this.#nextShared++;
    if (index >= this.#slots.length) throw new Error("too many shared-iterations scenarios");
    Atomics.store(this.#slots, index, n);
    return index;
  }

  /** Takes one of the shared iterations; false when none is left. */
  claim(index: number): boolean {
    return Atomics.sub(this.#slots, index, 1) > 0;
  }
}

/** What a VU runs: up to `count` iterations (-1: no limit) while the run goes on, the VU is active and `until` (epoch ms; 0: none) is ahead. */
export interface Lease {
  exec: string;
  scenario: string;
  iter: number;
  iterationInTest: number;
  until: number;
  count: number;
  /** A RunCounters.sharedIterations slot each further iteration claims from; -1: none. */
  sharedIndex: number;
}

/**
 * Compiles the script alone (no VU): a syntax error with its line and
 * column, or an import of a module that is not here, naming it.
 */
export async function checkScript(source: string): Promise<ScriptProblem | undefined> {
  const isolate = new ivm.Isolate({ memoryLimit: 32 });
  try {
    const mod = await isolate.compileModule(source, { filename: SCRIPT_FILENAME });
    for (const spec of mod.dependencySpecifiers) {
      const why = unsupportedModule(spec);
      if (why) return { message: `import "${spec}": ${why}`, module: spec };
    }
    return undefined;
  } catch (e) {
    return located(e);
  } finally {
    isolate.dispose();
  }
}

/**
 * Runs the k6 runtime and then the script's init code in `context`, whose
 * host globals the caller has set; answers the runtime's functions by name.
 * Throws ScriptError for the script's own faults.
 */
export async function loadVuScript(isolate: ivm.Isolate, context: ivm.Context, opts: { id: number; source: string; env: Record<string, string> }): Promise<(name: string) => Promise<ivm.Reference>> {
  const script = await runtime.compile(isolate);
  await script.run(context, { timeout: 5000 });
  script.release();
  const api = (await context.global.get("__k6rt", { reference: true })) as ivm.Reference<Record<string, unknown>>;
  const fn = async (name: string) => (await api.get(name, { reference: true })) as ivm.Reference;
  const configure = await fn("configure");
  await configure.apply(undefined, [opts.id, JSON.stringify(opts.env)], { arguments: { copy: true } });

  let user: ivm.Module;
  try {
    user = await isolate.compileModule(opts.source, { filename: SCRIPT_FILENAME });
  } catch (e) {
    throw new ScriptError(located(e));
  }
  const shims = new Map<string, ivm.Module>();
  for (const spec of user.dependencySpecifiers) {
    const why = unsupportedModule(spec);
    if (why) throw new ScriptError({ message: `import "${spec}": ${why}`, module: spec });
    if (!shims.has(spec) && SUPPORTED_MODULES[spec]) shims.set(spec, await isolate.compileModule(moduleSource(spec), { filename: `${spec}.js` }));
  }
  const main = await isolate.compileModule(`import * as s from "${SCRIPT_FILENAME}";\nglobalThis.__k6rt.attach(s);`, { filename: "k6-main.js" });
  await main.instantiate(context, (spec) => {
    if (spec === SCRIPT_FILENAME) return user;
    const m = shims.get(spec);
    if (!m) throw new Error(`no module ${spec}`);
    return m;
  });
  try {
    await main.evaluate({ timeout: 30_000 });
  } catch (e) {
    throw new ScriptError({ message: `the script's init code failed: ${(e as Error)?.message ?? e}` });
  }
  const endInit = await fn("endInit");
  await endInit.apply(undefined, []);
  return fn;
}

/** A VU as its group drives it: K6Vu (an isolate of its own) or SharedVu (a context of a shared isolate). */
export interface LoadVu {
  readonly id: number;
  /** Set once its isolate is gone (disposed, or killed by its limits). */
  readonly disposed: boolean;
  setData(json: string | undefined): Promise<void>;
  lease(lease: Lease, onReport?: (r: IterationResult) => void): Promise<IterationResult>;
  /** CPU the VU's isolate spent that the watchdog counts against an iteration, in milliseconds. */
  cpuMs(): number;
  setActive(active: boolean): void;
  stop(): void;
  /** Stops a runaway now: ends the VU's isolate (a shared one with every VU in it). */
  kill(): void;
  dispose(): void;
  settled(): Promise<void>;
}

export class K6Vu implements LoadVu {
  #expected: ExpectedStatuses = null;
  /** The isolate's iteration loop (isolate/entry.ts `loop`), started by the first iterate(). */
  #loop: Promise<void> | undefined;
  /** The loop is blocked on the channel for its next ticket. */
  #waitingForTicket = false;
  #pendingTicket: string | undefined;
  #reportWaiter: { resolve: (r: IterationResult) => void; reject: (e: unknown) => void } | undefined;
  /** Results of a lease's iterations before its last. */
  #onReport: ((r: IterationResult) => void) | undefined;
  private constructor(
    readonly id: number,
    readonly isolate: ivm.Isolate,
    private readonly rt: { loop: ivm.Reference; lifecycle: ivm.Reference; setData: ivm.Reference; info: ivm.Reference },
    private readonly channel: ChannelHost,
  ) {}

  get expected(): ExpectedStatuses {
    return this.#expected;
  }

  get disposed(): boolean {
    return this.isolate.isDisposed;
  }

  /** A VU with the script's init code run (its options, metrics and SharedArrays made). Throws ScriptError. */
  static async create(opts: VuOptions): Promise<K6Vu> {
    const isolate = new ivm.Isolate({ memoryLimit: opts.memoryMb ?? 64 });
    let vu: K6Vu | undefined;
    // setResponseCallback() in the init code runs before the VU object exists.
    let pendingExpected: ExpectedStatuses = null;
    try {
      const context = await isolate.createContext();
      const g = context.global;
      const host = opts.host;
      const channel = new ChannelHost();
      await g.set("__k6_channel", new ivm.ExternalCopy(channel.buffer).copyInto({ release: true }));
      await g.set("__k6_take", new ivm.Reference(() => channel.take()));
      // Every path answers: the VU's thread waits until it does.
      await g.set(
        "__k6_http",
        new ivm.Reference((json: string) => {
          let sent: Promise<HostResponse[]>;
          let requests: HostRequest[] = [];
          try {
            requests = JSON.parse(json) as HostRequest[];
            sent = host.http(opts.id, requests, vu ? vu.#expected : null);
          } catch (e) {
            sent = Promise.reject(e);
          }
          sent.then(
            (res) => channel.answer(JSON.stringify(packResponses(res, requests))),
            (e: unknown) => channel.answer((e as Error)?.message ?? String(e), true),
          );
        }),
      );
      await g.set("__k6_shared", new ivm.Reference((name: string, json: string | undefined) => host.shared(name, json)));
      await g.set("__k6_open", new ivm.Reference((p: string, binary: boolean) => host.open(p, binary)));
      await g.set("__k6_log", new ivm.Reference((level: string, text: string) => host.log(opts.id, level, text)));
      await g.set("__k6_abort", new ivm.Reference((reason: string) => host.abort(reason)));
      await g.set("__k6_next", new ivm.Reference((report: string) => (vu ? vu.#next(report) : channel.answer(""))));
      await g.set("__k6_report", new ivm.Reference((report: string) => vu && vu.#onReport?.(JSON.parse(report) as IterationResult)));
      await g.set("__k6_counters", new ivm.ExternalCopy((opts.counters ?? new RunCounters()).buffer).copyInto({ release: true }));
      await g.set(
        "__k6_expected",
        new ivm.Reference((json: string) => {
          if (vu) vu.#expected = JSON.parse(json) as ExpectedStatuses;
          else pendingExpected = JSON.parse(json) as ExpectedStatuses;
        }),
      );
      const fn = await loadVuScript(isolate, context, opts);
      const rt = { loop: await fn("loop"), lifecycle: await fn("lifecycle"), setData: await fn("setData"), info: await fn("info") };
      vu = new K6Vu(opts.id, isolate, rt, channel);
      vu.#expected = pendingExpected;
      return vu;
    } catch (e) {
      if (!isolate.isDisposed) isolate.dispose();
      throw e;
    }
  }

  async info(): Promise<ScriptInfo> {
    await this.#endLoop();
    return JSON.parse((await this.rt.info.apply(undefined, [], { result: { copy: true } })) as string) as ScriptInfo;
  }

  async setData(json: string | undefined): Promise<void> {
    await this.#endLoop();
    await this.rt.setData.apply(undefined, [json], { arguments: { copy: true } });
  }

  /** One call of the scenario's function. A script exception is the result's `error`, not a throw. */
  iterate(exec: string, iter: number, iterationInTest: number, scenario: string): Promise<IterationResult> {
    return this.lease({ exec, iter, iterationInTest, scenario, until: 0, count: 1, sharedIndex: -1 });
  }

  /**
   * Runs the lease's iterations one after another without asking the host
   * between them (isolate/entry.ts `loop`); `onReport` gets each result but
   * the last as it comes, the promise the last one.
   */
  lease(lease: Lease, onReport?: (r: IterationResult) => void): Promise<IterationResult> {
    return new Promise<IterationResult>((resolve, reject) => {
      this.#reportWaiter = { resolve, reject };
      this.#onReport = onReport;
      this.#hand(JSON.stringify([lease.exec, lease.iter, lease.iterationInTest, lease.scenario, lease.until, lease.count, lease.sharedIndex]));
      this.#loop ??= this.rt.loop.apply(undefined, [], { result: { promise: true } }).then(
        () => this.#failWaiting(new Error(`VU ${this.id}: its loop ended`)),
        (e: unknown) => this.#failWaiting(e),
      );
    });
  }

  /** The next ticket to the loop: now when it is waiting for one, else when it asks. "" ends the loop. */
  #hand(ticket: string) {
    if (this.#waitingForTicket) {
      this.#waitingForTicket = false;
      this.channel.answer(ticket);
    } else this.#pendingTicket = ticket;
  }

  /** The loop's turn: the last iteration's result in, the next ticket out (now, or when iterate() hands one). */
  #next(report: string): void {
    if (report) {
      const w = this.#reportWaiter;
      this.#reportWaiter = undefined;
      this.#onReport = undefined;
      w?.resolve(JSON.parse(report) as IterationResult);
    }
    if (this.#pendingTicket !== undefined) {
      const t = this.#pendingTicket;
      this.#pendingTicket = undefined;
      this.channel.answer(t);
    } else this.#waitingForTicket = true;
  }

  /**
   * Ends the iteration loop (it holds the isolate while it waits for a ticket),
   * so a call into the isolate (teardown, info) can run; the next iterate()
   * starts it again.
   */
  async #endLoop(): Promise<void> {
    const loop = this.#loop;
    if (!loop) return;
    this.#hand("");
    await loop;
    this.#loop = undefined;
    this.#pendingTicket = undefined;
  }

  #failWaiting(e: unknown) {
    const w = this.#reportWaiter;
    this.#reportWaiter = undefined;
    w?.reject(e);
  }

  /** setup(), teardown(data) or handleSummary(data). */
  async lifecycle(name: string, argJson: string | undefined): Promise<IterationResult> {
    await this.#endLoop();
    const json = (await this.rt.lifecycle.apply(undefined, [name, argJson], { arguments: { copy: true }, result: { promise: true, copy: true } })) as string;
    return JSON.parse(json) as IterationResult;
  }

  /** CPU the isolate has used, in milliseconds (the runaway watchdog reads it). */
  cpuMs(): number {
    return this.isolate.isDisposed ? 0 : Number(this.isolate.cpuTime) / 1e6;
  }

  /** Whether a lease may go on past the current iteration (ramping-vus turns a VU off with false). */
  setActive(active: boolean): void {
    this.channel.setActive(active);
  }

  /** The run stopped: a sleep ends now, later ones at once. */
  stop(): void {
    this.channel.stop();
  }

  kill(): void {
    this.dispose();
  }

  dispose(): void {
    this.#hand("");
    this.channel.stop();
    if (!this.isolate.isDisposed) this.isolate.dispose();
  }

  /** Resolves once the iteration loop's call into the isolate has come back (after dispose(): failed). */
  async settled(): Promise<void> {
    await this.#loop?.catch(() => {});
  }
}
