// Several VUs in one isolate: each VU a context of its own (its globals, its
// instance of the script), the script rewritten to await its waits
// (async-script.ts), the isolate's traffic with the host gathered by a hub
// context (isolate/hub.ts) into one crossing per batch each way. One isolate
// per VU costs a thread hand-off per request each way; here a batch of many
// VUs' requests costs one, which is what the load generator's throughput
// hangs on (bench/perf/experiments/multi-vu-results.md: 0.40× of autocannon
// against 0.17× on two cores).
//
// What the VUs share: the isolate's heap limit (SHARED_HEAP_MB_MAX at most)
// and its thread, so one VU's busy loop stalls the others until the CPU
// watchdog kills the isolate, and with it every VU in it.
import path from "node:path";
import ivm from "isolated-vm";
import { type IsolateBundle, isolateBundle } from "@/server/lib/isolate-bundle";
import { type HostResponse, packResponses } from "./isolate/http";
import type { ExpectedStatuses, HostRequest, IterationResult, Lease, LoadVu, RunCounters, VuHost } from "./vu";
import { loadVuScript, prebuiltBundle } from "./vu";

/** VU contexts one shared isolate holds at most; the group opens another beyond that. */
export const VUS_PER_SHARED_ISOLATE = 100;
/** The heap limit of a shared isolate: the per-VU limit times its VUs, capped here. */
export const SHARED_HEAP_MB_MAX = 2048;

/** Set in a worker thread's bundle (worker-pool.ts): the hub's code, so the worker does not bundle it again. */
declare const __K6_HUB_CODE__: string | undefined;

const HUB_FILENAME = "k6-hub.js";
const hubBundle: IsolateBundle =
  typeof __K6_HUB_CODE__ === "string"
    ? prebuiltBundle(__K6_HUB_CODE__, HUB_FILENAME)
    : isolateBundle({ entry: "server/perf/k6/isolate/hub.ts", near: import.meta.dirname && path.join(import.meta.dirname, "isolate", "hub.ts"), filename: HUB_FILENAME });

/** The hub's code, for a worker thread's bundle. */
export function hubCode(): Promise<string> {
  return hubBundle.code();
}

type Ticket = [string, number, number, string, number, number, number];

/** An iteration that sampled, checked and threw nothing crosses as 0. */
const NOTHING_TO_REPORT: IterationResult = Object.freeze({ samples: [], checks: [] }) as IterationResult;
/** A send is [id, vu, requests], or [id, vu, template] for a bare request the hub posted before, which the first post carries as [id, vu, [request], template]. */
type Posted = [sends: [number, number, HostRequest[] | number, number?][], sleeps: number[], reports: [number, 0 | 1, IterationResult | 0][], acknowledged: number];

export class SharedIsolate {
  readonly #vus = new Map<number, SharedVu>();
  /** The hub's bare requests by their number (isolate/hub.ts RequestTemplate), each as the one-request list a send carries; nothing writes to them. */
  readonly #templates: HostRequest[][] = [];
  #answers: [number, unknown][] = [];
  #tickets: [number, Ticket][] = [];
  #deliveryQueued = false;
  /** A delivery has gone to the isolate and no post has acknowledged it yet. */
  #delivering = false;
  #deliveries = 0;
  readonly #sleeps = new Set<NodeJS.Timeout>();
  /** Posts so far; the watchdog's baseline moves whenever there were new ones. */
  #posts = 0;
  #postsAtBaseline = -1;
  /** The isolate's CPU time (ns) at the watchdog's first look after a post: what it spent since is what a runaway VU would be spending. */
  #cpuBaseline = 0n;
  #dead: Error | undefined;
  #stopped = false;
  #disposing = false;
  readonly #open: Promise<void>;

  private constructor(
    readonly isolate: ivm.Isolate,
    readonly capacity: number,
    readonly memoryMb: number,
    private readonly hub: ivm.Context,
    private readonly refs: Record<"deliver" | "setActive" | "stop" | "forget" | "close", ivm.Reference>,
    open: ivm.Reference,
    private readonly counters: RunCounters,
    private readonly host: VuHost,
  ) {
    this.#open = open.apply(undefined, [], { result: { promise: true } }).then(
      () => this.#die(new Error("its isolate was closed")),
      (e: unknown) => this.#die(this.#disposing ? (e as Error) : this.#outOfMemory()),
    );
  }

  /** An isolate for up to `capacity` VUs, each with `memoryMb` of heap (SHARED_HEAP_MB_MAX in all at most). */
  static async create(opts: { capacity: number; memoryMb: number; counters: RunCounters; host: VuHost }): Promise<SharedIsolate> {
    const capacity = Math.max(1, Math.min(VUS_PER_SHARED_ISOLATE, opts.capacity));
    const memoryMb = Math.min(SHARED_HEAP_MB_MAX, Math.max(opts.memoryMb, opts.memoryMb * capacity));
    const isolate = new ivm.Isolate({ memoryLimit: memoryMb });
    try {
      const hub = await isolate.createContext();
      // Posts can only come once the hub runs, after `made` is set.
      const made: { shared?: SharedIsolate } = {};
      await hub.global.set("__hub_post", new ivm.Reference((message: string) => made.shared && made.shared.#onPost(message)));
      const script = await hubBundle.compile(isolate);
      await script.run(hub, { timeout: 5000 });
      script.release();
      const ref = async (name: string) => (await hub.global.get(name, { reference: true })) as ivm.Reference;
      const refs = { deliver: await ref("__hub_deliver"), setActive: await ref("__hub_setActive"), stop: await ref("__hub_stop"), forget: await ref("__hub_forget"), close: await ref("__hub_close") };
      made.shared = new SharedIsolate(isolate, capacity, memoryMb, hub, refs, await ref("__hub_open"), opts.counters, opts.host);
      return made.shared;
    } catch (e) {
      if (!isolate.isDisposed) isolate.dispose();
      throw e;
    }
  }

  get full(): boolean {
    return this.#vus.size >= this.capacity;
  }

  get dead(): boolean {
    return this.#dead !== undefined || this.isolate.isDisposed;
  }

  /** A VU context with the script's init code run in it (`source` is the rewritten script). Throws ScriptError. */
  async createVu(id: number, source: string, env: Record<string, string>): Promise<SharedVu> {
    const context = await this.isolate.createContext();
    try {
      const vu = new SharedVu(id, this, context);
      const g = context.global;
      const host = this.host;
      const hubObject = (await this.hub.global.get("__hub", { reference: true })) as ivm.Reference;
      await g.set("__k6_hub", hubObject.derefInto());
      hubObject.release();
      await g.set("__k6_shared", new ivm.Reference((name: string, json: string | undefined) => host.shared(name, json)));
      await g.set("__k6_open", new ivm.Reference((p: string, binary: boolean) => host.open(p, binary)));
      await g.set("__k6_log", new ivm.Reference((level: string, text: string) => host.log(id, level, text)));
      await g.set("__k6_abort", new ivm.Reference((reason: string) => host.abort(reason)));
      await g.set("__k6_counters", new ivm.ExternalCopy(this.counters.buffer).copyInto({ release: true }));
      await g.set("__k6_expected", new ivm.Reference((json: string) => vu.expect(JSON.parse(json) as ExpectedStatuses)));
      // The VU is reachable from the hub once `configure` registers it; answers to it find it here.
      this.#vus.set(id, vu);
      const fn = await loadVuScript(this.isolate, context, { id, source, env });
      vu.attach(await fn("setData"));
      return vu;
    } catch (e) {
      this.#vus.delete(id);
      context.release();
      throw e;
    }
  }

  /** What the isolate ran since it last posted, in ms: a VU that never yields makes it grow (the watchdog's reading). */
  cpuSinceYield(): number {
    if (this.isolate.isDisposed) return 0;
    // Read here (4 times a second), not on every post (tens of thousands a second).
    const cpu = this.isolate.cpuTime;
    if (this.#posts !== this.#postsAtBaseline) {
      this.#postsAtBaseline = this.#posts;
      this.#cpuBaseline = cpu;
    }
    return Number(cpu - this.#cpuBaseline) / 1e6;
  }

  lease(vu: number, lease: Lease): void {
    this.#tickets.push([vu, [lease.exec, lease.iter, lease.iterationInTest, lease.scenario, lease.until, lease.count, lease.sharedIndex]]);
    this.#deliverSoon();
  }

  setActive(vu: number, active: boolean): void {
    if (!this.dead) this.refs.setActive.applyIgnored(undefined, [vu, active]);
  }

  /** The run stopped: sleeps end now, later ones at once. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const t of this.#sleeps) clearTimeout(t);
    this.#sleeps.clear();
    if (!this.dead) this.refs.stop.applyIgnored(undefined, []);
  }

  forget(vu: SharedVu, context: ivm.Context): void {
    if (this.#vus.get(vu.id) === vu) this.#vus.delete(vu.id);
    if (!this.dead) {
      this.refs.forget.applyIgnored(undefined, [vu.id]);
      context.release();
    }
  }

  /** Ends the isolate and every VU in it (the CPU watchdog's kill, the group's end). */
  async dispose(): Promise<void> {
    this.#disposing = true;
    this.stop();
    if (!this.isolate.isDisposed) {
      // A clean close first, so #open settles without an error; dispose() then frees the heap (and stops a runaway at once).
      this.refs.close.applyIgnored(undefined, []);
      this.isolate.dispose();
    }
    await this.#open;
  }

  /**
   * isolated-vm ends an isolate on its own only at its memory limit, and says
   * so only to a call that was running at that moment, which is rarely ours.
   */
  #outOfMemory(): Error {
    return new Error(`its isolate reached its memory limit (${this.memoryMb} MB, shared by the ${this.#vus.size} VUs in it)`);
  }

  #die(e: Error) {
    this.#dead ??= e;
    for (const t of this.#sleeps) clearTimeout(t);
    this.#sleeps.clear();
    for (const vu of this.#vus.values()) vu.fail(this.#dead);
  }

  #onPost(message: string) {
    this.#posts++;
    const [sends, sleeps, reports, acknowledged] = JSON.parse(message) as Posted;
    if (acknowledged === this.#deliveries && this.#delivering) {
      this.#delivering = false;
      if (this.#deliveryQueued) setImmediate(this.#deliver);
    }
    for (const [vu, last, result] of reports) this.#vus.get(vu)?.onResult(result || NOTHING_TO_REPORT, last === 1);
    for (const send of sends) {
      const id = send[0];
      const vu = send[1];
      let requests: HostRequest[];
      if (typeof send[2] === "number") requests = this.#templates[send[2]];
      else {
        requests = send[2];
        if (send[3] !== undefined) this.#templates[send[3]] = requests;
      }
      let sent: Promise<HostResponse[]>;
      try {
        sent = this.host.http(vu, requests, this.#vus.get(vu)?.expected ?? null);
      } catch (e) {
        sent = Promise.reject(e);
      }
      sent.then(
        (responses) => this.#answer(id, packResponses(responses, requests)),
        (e: unknown) => this.#answer(id, (e as Error)?.message ?? String(e)),
      );
    }
    for (let i = 0; i + 1 < sleeps.length; i += 2) {
      const id = sleeps[i];
      if (this.#stopped) {
        this.#answer(id, 0);
        continue;
      }
      const t = setTimeout(() => {
        this.#sleeps.delete(t);
        this.#answer(id, 0);
      }, sleeps[i + 1]);
      this.#sleeps.add(t);
    }
  }

  #answer(id: number, answer: unknown) {
    this.#answers.push([id, answer]);
    this.#deliverSoon();
  }

  /**
   * After this turn's I/O callbacks, and not while the isolate still runs the
   * last delivery: what comes meanwhile waits for the next one, so a busy
   * isolate gets fewer, larger deliveries (each costs a thread hand-off).
   */
  #deliverSoon() {
    if (this.#deliveryQueued) return;
    this.#deliveryQueued = true;
    if (!this.#delivering) setImmediate(this.#deliver);
  }

  readonly #deliver = () => this.#deliverNow();

  #deliverNow(): void {
    if (this.dead || this.#delivering) return;
    const message = JSON.stringify([this.#answers, this.#tickets, ++this.#deliveries]);
    this.#answers = [];
    this.#tickets = [];
    this.#deliveryQueued = false;
    this.#delivering = true;
    // Ignored, not awaited: an awaited call costs the host some 45 µs of CPU, an ignored one 1 µs; the hub's next post acknowledges it.
    this.refs.deliver.applyIgnored(undefined, [message]);
  }
}

/** A VU that is a context of a SharedIsolate. */
export class SharedVu implements LoadVu {
  #expected: ExpectedStatuses = null;
  #setData: ivm.Reference | undefined;
  #waiter: { resolve: (r: IterationResult) => void; reject: (e: unknown) => void; onReport?: (r: IterationResult) => void } | undefined;
  #released = false;

  constructor(
    readonly id: number,
    readonly shared: SharedIsolate,
    private readonly context: ivm.Context,
  ) {}

  get expected(): ExpectedStatuses {
    return this.#expected;
  }

  get disposed(): boolean {
    return this.#released || this.shared.dead;
  }

  expect(e: ExpectedStatuses): void {
    this.#expected = e;
  }

  attach(setData: ivm.Reference): void {
    this.#setData = setData;
  }

  async setData(json: string | undefined): Promise<void> {
    await this.#setData!.apply(undefined, [json], { arguments: { copy: true } });
  }

  lease(lease: Lease, onReport?: (r: IterationResult) => void): Promise<IterationResult> {
    return new Promise<IterationResult>((resolve, reject) => {
      if (this.disposed) return reject(new Error(`VU ${this.id}: its isolate is gone`));
      this.#waiter = { resolve, reject, onReport };
      this.shared.lease(this.id, lease);
    });
  }

  onResult(result: IterationResult, last: boolean): void {
    const w = this.#waiter;
    if (!w) return;
    if (!last) return w.onReport?.(result);
    this.#waiter = undefined;
    w.resolve(result);
  }

  fail(e: unknown): void {
    const w = this.#waiter;
    this.#waiter = undefined;
    w?.reject(e);
  }

  cpuMs(): number {
    return this.shared.cpuSinceYield();
  }

  setActive(active: boolean): void {
    this.shared.setActive(this.id, active);
  }

  stop(): void {
    this.shared.stop();
  }

  /** A runaway stalls the whole isolate: killing it ends every VU in it. */
  kill(): void {
    void this.shared.dispose();
  }

  dispose(): void {
    if (this.#released) return;
    this.#released = true;
    this.fail(new Error(`VU ${this.id} was disposed`));
    this.shared.forget(this, this.context);
  }

  async settled(): Promise<void> {}
}
