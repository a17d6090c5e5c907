// The parts a run's VUs are split into, as the engine sees them: a VuGroup in
// the engine's own thread, or one in a worker thread reached by messages.
// Worker threads let a large run use every core for its HTTP clients and
// executors (one event loop cannot serve many thousands of requests a second
// and the VUs' hand-offs at once). The worker's code is worker.ts bundled by
// esbuild on first use (our TypeScript inlined, packages required from
// node_modules, the isolate runtime embedded), so the same code runs under
// tsx, vitest and the bundled server, all started from the repository root.
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { newAggregate } from "../metrics";
import { LoadInputError } from "./plan";
import { maxVusOf, type Scenario, shareOf } from "./scenarios";
import type { GroupConfig, GroupOutcome, GroupSnapshot, GroupTick, VuGroup } from "./vu-group";
import { hubCode } from "./shared-isolate";
import { runtimeCode } from "./vu";

export type ToWorker = { type: "prepare"; id: number } | { type: "run"; id: number; startAt: number } | { type: "tick"; id: number; snapshot: boolean } | { type: "stop" } | { type: "finish"; id: number } | { type: "close" };

export type FromWorker =
  | { type: "done"; id: number }
  | { type: "failed"; id: number; error: { name: string; message: string; location?: unknown } }
  | { type: "tick"; id: number; tick: GroupTick; snapshot?: GroupSnapshot }
  | { type: "finished"; id: number; outcome: GroupOutcome; snapshot: GroupSnapshot }
  | { type: "abort"; why: string };

/** A share of the run's VUs, wherever it runs. */
export interface RunPart {
  /** Makes the share's VUs. */
  prepare(): Promise<void>;
  /** Runs its scenarios from `startAt` (epoch ms with sub-millisecond precision: performance.timeOrigin + now). */
  run(startAt: number): Promise<void>;
  /** The last second's counts, and what it measured so far when `withSnapshot` (a part in the engine's thread shares its registry instead). */
  tick(withSnapshot: boolean): Promise<{ tick: GroupTick; snapshot?: GroupSnapshot }>;
  stop(): void;
  /** After run(): how it went, and all it measured (undefined when it shares the engine's registry). */
  finish(): Promise<{ outcome: GroupOutcome; snapshot?: GroupSnapshot }>;
  /** Ends its VUs; resolves when they (and its thread) are gone. */
  dispose(): Promise<void>;
}

/** The group in the engine's thread: its registry is the engine's own. */
export class LocalPart implements RunPart {
  constructor(readonly group: VuGroup) {}
  prepare() {
    return this.group.prepare();
  }
  run(startAt: number) {
    return this.group.run(startAt);
  }
  async tick() {
    return { tick: this.group.tick() };
  }
  stop() {
    this.group.stop();
  }
  async finish() {
    return { outcome: this.group.outcome() };
  }
  dispose() {
    return this.group.dispose();
  }
}

let bundle: Promise<string> | undefined;

function workerEntry(): string {
  const candidates = [import.meta.dirname && path.join(import.meta.dirname, "worker.ts"), path.join(process.cwd(), "server/perf/k6/worker.ts")].filter((p): p is string => !!p);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`the load engine's worker code is missing (looked in ${candidates.join(", ")})`);
  return found;
}

/** worker.ts as one CommonJS script (built once per process; a failed build is retried next time). */
function workerCode(): Promise<string> {
  bundle ??= (async () => {
    const { build } = await import("esbuild");
    const result = await build({
      entryPoints: [workerEntry()],
      bundle: true,
      write: false,
      platform: "node",
      format: "cjs",
      target: "node20",
      packages: "external",
      define: { __K6_RUNTIME_CODE__: JSON.stringify(await runtimeCode()), __K6_HUB_CODE__: JSON.stringify(await hubCode()) },
      logLevel: "silent",
    });
    return result.outputFiles[0].text;
  })().catch((e: unknown) => {
    bundle = undefined;
    throw e;
  });
  return bundle;
}

/** How long a worker may take to end its VUs before it is terminated. */
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * A group in a worker thread. A worker that dies (it should not; a crash of
 * the VU sandbox would do it) fails the run with the reason, and the run
 * keeps what the worker reported last and what the other parts measure.
 */
export class WorkerPart implements RunPart {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (m: FromWorker) => void; reject: (e: Error) => void }>();
  #nextId = 1;
  #dead: Error | undefined;
  #disposed = false;
  readonly #exited: Promise<void>;

  private constructor(code: string, config: GroupConfig, onAbort: (why: string) => void) {
    // Run from the repository root: the bundle's require() of packages resolves from there.
    this.#worker = new Worker(code, { eval: true, workerData: { config } });
    this.#worker.on("message", (m: FromWorker) => {
      if (m.type === "abort") return onAbort(m.why);
      const waiter = this.#pending.get(m.id);
      this.#pending.delete(m.id);
      if (!waiter) return;
      if (m.type === "failed") {
        const e = m.error.name === "LoadInputError" ? new LoadInputError(m.error.message, m.error.location as LoadInputError["location"]) : new Error(m.error.message);
        waiter.reject(e);
      } else waiter.resolve(m);
    });
    this.#worker.on("error", (e) => this.#die(e));
    this.#exited = new Promise((resolve) =>
      this.#worker.once("exit", (code) => {
        this.#die(new Error(`a worker thread of the run exited (code ${code})`));
        resolve();
      }),
    );
  }

  static async start(config: GroupConfig, onAbort: (why: string) => void): Promise<WorkerPart> {
    return new WorkerPart(await workerCode(), config, onAbort);
  }

  #die(e: Error) {
    if (this.#disposed) return;
    this.#dead ??= e;
    for (const w of this.#pending.values()) w.reject(this.#dead);
    this.#pending.clear();
  }

  #request(message: Omit<Extract<ToWorker, { id: number }>, "id">): Promise<FromWorker> {
    if (this.#dead) return Promise.reject(this.#dead);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  async prepare() {
    await this.#request({ type: "prepare" });
  }

  async run(startAt: number) {
    await this.#request({ type: "run", startAt } as Omit<Extract<ToWorker, { type: "run" }>, "id">).catch(() => {});
  }

  async tick(withSnapshot: boolean) {
    try {
      const m = (await this.#request({ type: "tick", snapshot: withSnapshot } as Omit<Extract<ToWorker, { type: "tick" }>, "id">)) as Extract<FromWorker, { type: "tick" }>;
      return { tick: m.tick, snapshot: m.snapshot };
    } catch {
      return { tick: { vus: 0, vusMax: 0, requests: 0, failed: 0, iterations: 0, checksFailed: 0, dataSent: 0, dataReceived: 0, durations: newAggregate("trend").snapshot() } };
    }
  }

  stop() {
    if (!this.#dead) this.#worker.postMessage({ type: "stop" } satisfies ToWorker);
  }

  async finish(): Promise<{ outcome: GroupOutcome; snapshot?: GroupSnapshot }> {
    try {
      const m = (await this.#request({ type: "finish" })) as Extract<FromWorker, { type: "finished" }>;
      return { outcome: m.outcome, snapshot: m.snapshot };
    } catch (e) {
      const why = `a worker thread of the run failed: ${(e as Error).message}`;
      return { outcome: { failure: why, errors: [[why, 1]], logs: [] } };
    }
  }

  async dispose() {
    if (this.#disposed) return this.#exited;
    this.#disposed = true;
    for (const w of this.#pending.values()) w.reject(new Error("the run ended"));
    this.#pending.clear();
    this.#worker.postMessage({ type: "close" } satisfies ToWorker);
    const late = setTimeout(() => void this.#worker.terminate(), CLOSE_TIMEOUT_MS);
    await this.#exited;
    clearTimeout(late);
  }
}

/**
 * A run's scenarios split over `count` parts (worker threads): VUs (and
 * rates) divided so that the parts together run exactly the whole. A
 * scenario with fewer VUs than parts goes whole to one part, so no part
 * holds a VU the script did not ask for. shared-iterations parts keep the
 * scenario's count: their VUs take iterations from one counter (RunCounters).
 */
export function splitScenarios(scenarios: Scenario[], count: number): Scenario[][] {
  const parts = Array.from({ length: count }, () => [] as Scenario[]);
  scenarios.forEach((s, k) => {
    if (count <= 1 || maxVusOf(s) < count) {
      parts[k % count].push(s);
      return;
    }
    for (let j = 0; j < count; j++) {
      const seg = { index: j, count };
      switch (s.executor) {
        case "constant-vus":
        case "per-vu-iterations":
        case "shared-iterations":
          parts[j].push({ ...s, vus: shareOf(s.vus, seg) });
          break;
        case "ramping-vus": {
          const stages = s.stages.map((x) => ({ ...x, target: shareOf(x.target, seg) }));
          const startVUs = shareOf(s.startVUs, seg);
          if (startVUs > 0 || stages.some((x) => x.target > 0)) parts[j].push({ ...s, startVUs, stages });
          break;
        }
        case "constant-arrival-rate":
        case "ramping-arrival-rate": {
          const maxVUs = shareOf(s.maxVUs, seg);
          const preAllocatedVUs = Math.min(maxVUs, Math.max(1, shareOf(s.preAllocatedVUs, seg)));
          // Each part's share of the rate follows its share of the VUs.
          const f = maxVUs / s.maxVUs;
          if (s.executor === "constant-arrival-rate") parts[j].push({ ...s, rate: s.rate * f, preAllocatedVUs, maxVUs });
          else parts[j].push({ ...s, startRate: s.startRate * f, stages: s.stages.map((x) => ({ ...x, target: x.target * f })), preAllocatedVUs, maxVUs });
          break;
        }
      }
    }
  });
  return parts;
}
