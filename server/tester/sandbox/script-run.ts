// One script's life on the host side, from `start` to its final state. Every
// piece of script code runs inside an entry the host makes (start, a timer
// firing, a pm.sendRequest answer), each under the rest of the CPU budget and
// followed by a `settle` that reads what the entry did; the host owns the
// clock (timers, wall limit) and the network (sendRequest).
//
//   1. enter(start) → settle → absorb the outbox (logs, tests, timers to set, requests to send)
//   2. each timer or answer that comes in → enter(fire | deliver) → settle → absorb, one at a time
//   3. the outbox carries `final` once the script is idle (or has ended) → done
//   4. CPU or wall limit, memory limit, output flood → collect what can be collected, done
import type ivm from "isolated-vm";
import type { ScriptError, ScriptLog, ScriptTest } from "@/server/contracts/tester-execution";
import { normaliseSendRequest, toIsolateResponse } from "./host-request";
import type { FinalState, Outbox, RawError, TestUpdate } from "./protocol";
import { FIXED_LIMITS, type SandboxLimits, type ScriptInput } from "./types";

export interface IsolateHandles {
  isolate: ivm.Isolate;
  /** Set when the sandbox disposes the isolate itself (dispose() while a script runs). */
  closing: boolean;
  start: ivm.Reference<(...args: unknown[]) => void>;
  fire: ivm.Reference<(...args: unknown[]) => void>;
  deliver: ivm.Reference<(...args: unknown[]) => void>;
  settle: ivm.Reference<(...args: unknown[]) => string>;
}

export interface RunResult {
  tests: ScriptTest[];
  logs: ScriptLog[];
  error?: ScriptError;
  final?: FinalState;
  /** The isolate is gone (memory limit, or stuck past the watchdog): the sandbox must make a new one. */
  disposed: boolean;
  /** Execution was cut off mid-way (CPU limit), so the context's state cannot be trusted for the next script. */
  interrupted: boolean;
}

/** Time to read back a script's state after it hit a limit; not charged to the script. */
const COLLECT_MS = 250;
/** The least time a settle call gets, whatever is left of the CPU budget. */
const SETTLE_FLOOR_MS = 50;
/** Beyond its own timeout an isolate call gets this long before the isolate is killed outright. */
const WATCHDOG_MS = 2000;
const LEVELS = new Set(["log", "info", "warn", "error", "debug"]);
const MAX_NAME = 1000;
const MAX_TEST_ERROR = 10_000;

type Entry = "start" | "fire" | "deliver";

export function errorFromRaw(raw: RawError): ScriptError {
  const memory = raw.name === "RangeError" && /allocation failed/i.test(raw.message);
  const kind = raw.kind === "output" ? "output" : memory ? "memory" : "runtime";
  const message = raw.kind === "output" ? raw.message : `${raw.name}: ${raw.message}`;
  const out: ScriptError = { message: message.slice(0, MAX_TEST_ERROR), kind };
  if (Number.isInteger(raw.line)) out.line = raw.line;
  if (Number.isInteger(raw.column)) out.column = raw.column;
  return out;
}

export class ScriptRun {
  readonly #h: IsolateHandles;
  readonly #input: ScriptInput;
  readonly #limits: SandboxLimits;
  readonly #runId: number;
  readonly #deadline: number;
  #cpuUsed = 0;
  #chain: Promise<void> = Promise.resolve();
  #done = false;
  #resolve!: (r: RunResult) => void;
  readonly #result = new Promise<RunResult>((r) => (this.#resolve = r));
  #wallTimer: NodeJS.Timeout | undefined;
  readonly #timers = new Map<number, NodeJS.Timeout>();
  readonly #inflight = new Set<number>();
  #sendCount = 0;
  readonly #tests = new Map<number, ScriptTest & { pending?: boolean }>();
  readonly #logs: ScriptLog[] = [];
  #logBytes = 0;
  #error: ScriptError | undefined;
  #final: FinalState | undefined;
  #disposed = false;
  #killedByWatchdog = false;
  #interrupted = false;
  /** #stop is reading back the script's state: a failure now ends the run, it does not stop it again. */
  #stopping = false;

  constructor(h: IsolateHandles, input: ScriptInput, limits: SandboxLimits, runId: number, startedAt: number) {
    this.#h = h;
    this.#input = input;
    this.#limits = limits;
    this.#runId = runId;
    this.#deadline = startedAt + limits.wallMs;
  }

  execute(fn: ivm.Reference<unknown>, inputJson: string): Promise<RunResult> {
    this.#wallTimer = setTimeout(() => this.#enqueue(() => this.#stop(this.#wallError())), Math.max(0, this.#deadline - performance.now()));
    this.#enqueue(() => this.#enter("start", [fn.derefInto(), inputJson]));
    return this.#result;
  }

  #enqueue(task: () => Promise<void>): void {
    this.#chain = this.#chain
      .then(() => (this.#done ? undefined : task()))
      .catch((e: unknown) => this.#finish({ message: `script sandbox failure: ${(e as Error)?.message ?? String(e)}`, kind: "runtime" }));
  }

  async #enter(name: Entry, args: unknown[]): Promise<void> {
    const entered = await this.#call(this.#h[name], args, this.#limits.cpuMs - this.#cpuUsed, true);
    if (entered === false || this.#done) return;
    // Reading results takes microseconds; a floor keeps a script that ended just under its budget from timing out here.
    const out = await this.#call(this.#h.settle, [this.#runId, false], Math.max(SETTLE_FLOOR_MS, this.#limits.cpuMs - this.#cpuUsed), true);
    if (out === false || this.#done) return;
    this.#absorb(out);
  }

  /** One call into the isolate; false when it hit a limit (the run is then being stopped). */
  async #call(ref: ivm.Reference<(...a: unknown[]) => unknown>, args: unknown[], budgetMs: number, charge: boolean): Promise<string | undefined | false> {
    if (budgetMs <= 0) {
      await this.#stop(this.#cpuError());
      return false;
    }
    const timeout = Math.max(1, Math.ceil(budgetMs));
    const started = performance.now();
    let watchdog: NodeJS.Timeout | undefined;
    const killed = new Promise<never>((_, reject) => {
      watchdog = setTimeout(() => {
        this.#killedByWatchdog = true;
        if (!this.#h.isolate.isDisposed) this.#h.isolate.dispose();
        reject(new Error("isolate call did not return"));
      }, timeout + WATCHDOG_MS);
    });
    let result: { ok: true; value: string | undefined } | { ok: false; error: unknown };
    try {
      const call = ref.apply(undefined, args, { arguments: { copy: true }, result: { copy: true }, timeout }) as Promise<string | undefined>;
      result = { ok: true, value: await Promise.race([call, killed]) };
    } catch (error) {
      result = { ok: false, error };
    }
    clearTimeout(watchdog);
    if (charge) this.#cpuUsed += performance.now() - started;
    if (result.ok) return result.value;
    await this.#failedCall(result.error);
    return false;
  }

  async #failedCall(e: unknown): Promise<void> {
    const message = (e as Error)?.message ?? String(e);
    if (this.#h.isolate.isDisposed) {
      this.#disposed = true;
      if (this.#h.closing) return this.#finish({ message: "The sandbox was disposed while the script ran", kind: "runtime" });
      if (this.#killedByWatchdog) return this.#finish(this.#cpuError());
      return this.#finish({ message: `Script exceeded its memory limit (${this.#limits.memoryMb} MB)`, kind: "memory" });
    }
    if (/timed out/i.test(message)) {
      this.#interrupted = true;
      if (this.#stopping) return;
      return this.#stop(this.#cpuError());
    }
    return this.#finish({ message: `script sandbox failure: ${message}`, kind: "runtime" });
  }

  #cpuError(): ScriptError {
    return { message: `Script exceeded its CPU time limit (${this.#limits.cpuMs} ms)`, kind: "timeout" };
  }

  #wallError(): ScriptError {
    const waiting: string[] = [];
    if (this.#timers.size) waiting.push(`${this.#timers.size} timer${this.#timers.size === 1 ? "" : "s"}`);
    if (this.#inflight.size) waiting.push(`${this.#inflight.size} pm.sendRequest`);
    const pending = [...this.#tests.values()].filter((t) => t.pending).length;
    if (pending) waiting.push(`${pending} async test${pending === 1 ? "" : "s"}`);
    const what = waiting.length ? waiting.join(", ") : "the script's promise";
    return { message: `Script did not finish within its wall time limit (${this.#limits.wallMs} ms); still waiting for ${what}`, kind: "timeout" };
  }

  /** Stops at a limit: reads back what the script did so far (the isolate is alive), then finishes. */
  async #stop(error: ScriptError): Promise<void> {
    if (this.#done || this.#stopping) return;
    this.#stopping = true;
    this.#error ??= error;
    this.#clearTimers();
    if (!this.#h.isolate.isDisposed) {
      const out = await this.#call(this.#h.settle, [this.#runId, true], COLLECT_MS, false).catch(() => false as const);
      if (out !== false) this.#absorb(out, true);
    }
    this.#finish();
  }

  #absorb(json: string | undefined, collecting = false): void {
    let out: Outbox;
    try {
      out = JSON.parse(String(json)) as Outbox;
    } catch {
      return this.#finish({ message: "script sandbox failure: unreadable results", kind: "runtime" });
    }
    if (Array.isArray(out.logs)) for (const log of out.logs) this.#addLog(log);
    if (Array.isArray(out.tests)) for (const t of out.tests) this.#addTest(t);
    if (out.error && typeof out.error === "object") {
      const error = errorFromRaw(out.error);
      // A flood found only now was the cause of whatever limit stopped the script.
      if (!this.#error || error.kind === "output") this.#error = error;
    }
    if (out.final && typeof out.final === "object") this.#final = out.final;
    if (collecting) return;
    if (this.#final) return this.#finish();
    // Only a script that tampered with the runtime gets past the isolate's own output limits.
    if (this.#error?.kind === "output") return void this.#enqueue(() => this.#stop(this.#error!));
    if (Array.isArray(out.cancels)) for (const id of out.cancels) this.#cancelTimer(Number(id));
    if (Array.isArray(out.timers)) for (const t of out.timers) this.#setTimer(Number(t?.id), Number(t?.ms));
    if (Array.isArray(out.sends)) for (const s of out.sends) this.#send(Number(s?.id), s?.request);
  }

  #addLog(log: Outbox["logs"][number]): void {
    if (!log || typeof log.message !== "string" || !LEVELS.has(log.level)) return;
    const bytes = Buffer.byteLength(log.message);
    if (this.#logs.length >= this.#limits.maxLogEntries || this.#logBytes + bytes > this.#limits.maxLogBytes) {
      this.#error = { message: `Log limit reached (${this.#limits.maxLogEntries} entries, ${this.#limits.maxLogBytes} bytes)`, kind: "output" };
      return;
    }
    this.#logBytes += bytes;
    this.#logs.push({ level: log.level, message: log.message, at: Number.isFinite(log.at) ? log.at : 0 });
  }

  #addTest(t: TestUpdate): void {
    if (!t || !Number.isInteger(t.i) || t.i < 0 || typeof t.name !== "string") return;
    if (!this.#tests.has(t.i) && this.#tests.size >= this.#limits.maxTests) {
      this.#error = { message: `Test limit reached (${this.#limits.maxTests} tests)`, kind: "output" };
      return;
    }
    const name = t.name.slice(0, MAX_NAME);
    if (t.status === "pending") this.#tests.set(t.i, { name, status: "failed", pending: true });
    else if (t.status === "failed") this.#tests.set(t.i, { name, status: "failed", error: String(t.error ?? "failed").slice(0, MAX_TEST_ERROR) });
    else if (t.status === "passed" || t.status === "skipped") this.#tests.set(t.i, { name, status: t.status });
  }

  #setTimer(id: number, ms: number): void {
    if (!Number.isInteger(id) || this.#done) return;
    this.#cancelTimer(id);
    if (this.#timers.size >= FIXED_LIMITS.maxTimers) return;
    const delay = Math.min(Math.max(0, Number.isFinite(ms) ? ms : 0), Math.max(0, this.#deadline - performance.now()));
    this.#timers.set(
      id,
      setTimeout(() => {
        this.#timers.delete(id);
        this.#enqueue(() => this.#enter("fire", [this.#runId, id]));
      }, delay),
    );
  }

  #cancelTimer(id: number): void {
    const t = this.#timers.get(id);
    if (t) clearTimeout(t);
    this.#timers.delete(id);
  }

  #clearTimers(): void {
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
  }

  #send(id: number, request: unknown): void {
    if (!Number.isInteger(id) || this.#inflight.has(id) || ++this.#sendCount > FIXED_LIMITS.maxSendRequests) return;
    const deliver = (error: string | null, response: string | null) => {
      this.#inflight.delete(id);
      if (!this.#done) this.#enqueue(() => this.#enter("deliver", [this.#runId, id, error, response]));
    };
    this.#inflight.add(id);
    const host = this.#input.sendRequest;
    if (!host) return deliver("pm.sendRequest is not available here: the sandbox was given no HTTP client", null);
    let req;
    try {
      req = normaliseSendRequest(request);
    } catch (e) {
      return deliver((e as Error).message, null);
    }
    Promise.resolve()
      .then(() => host(req))
      .then(
        (res) => deliver(null, JSON.stringify(toIsolateResponse(res))),
        (e: unknown) => deliver(String((e as Error)?.message ?? e), null),
      );
  }

  #finish(error?: ScriptError): void {
    if (this.#done) return;
    this.#done = true;
    if (error && !this.#error) this.#error = error;
    clearTimeout(this.#wallTimer);
    this.#clearTimers();
    const reason = this.#error ? "the script stopped before this test finished" : "the test did not finish";
    const tests = [...this.#tests.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, t]) => (t.pending ? { name: t.name, status: "failed" as const, error: reason } : t));
    this.#resolve({ tests, logs: this.#logs, error: this.#error, final: this.#final, disposed: this.#disposed, interrupted: this.#interrupted });
  }
}
