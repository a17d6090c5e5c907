// ScriptSandbox: one V8 isolate (isolated-vm) and one context for a
// collection run's scripts, run one at a time. The context is made once
// (runtime and chai compiled from V8's code cache) and reused, and each
// distinct script text is compiled once; an isolate lost to the memory limit
// is replaced before the next script.
import ivm from "isolated-vm";
import type { ScriptError } from "@/server/contracts/tester-execution";
import { compileRuntime } from "./bundle";
import { toIsolateResponse } from "./host-request";
import { SCRIPT_FILENAME } from "./isolate/errors";
import { buildOutcome, syntaxOutcome } from "./outcome";
import type { IsolateInput } from "./protocol";
import { ScriptRun, type IsolateHandles } from "./script-run";
import { DEFAULT_LIMITS, FIXED_LIMITS, type SandboxLimits, type ScriptInput, type ScriptOutcome } from "./types";

/** Distinct scripts kept compiled per context; a collection rarely has more. */
const COMPILED_CACHE = 256;
const BOOT_TIMEOUT_MS = 5000;

interface Booted extends IsolateHandles {
  context: ivm.Context;
  check: ivm.Reference<(source: string) => string>;
  compiled: Map<string, ivm.Reference<unknown>>;
}

function limitsOf(input: ScriptInput, memoryMb: number): SandboxLimits {
  const given = input.limits ?? {};
  const pick = (key: keyof SandboxLimits, fallback: number) => {
    const v = given[key];
    return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : fallback;
  };
  return {
    cpuMs: pick("cpuMs", DEFAULT_LIMITS.cpuMs),
    wallMs: pick("wallMs", DEFAULT_LIMITS.wallMs),
    memoryMb: Math.max(8, Math.round(pick("memoryMb", memoryMb))),
    maxLogEntries: pick("maxLogEntries", DEFAULT_LIMITS.maxLogEntries),
    maxLogBytes: pick("maxLogBytes", DEFAULT_LIMITS.maxLogBytes),
    maxTests: pick("maxTests", DEFAULT_LIMITS.maxTests),
  };
}

function isolateInput(input: ScriptInput, limits: SandboxLimits, runId: number): string {
  const { scopes, request } = input;
  const payload: IsolateInput = {
    runId,
    scriptType: input.scriptType,
    scopes: { globals: scopes.globals, collection: scopes.collection, environment: scopes.environment, data: input.iterationData ?? scopes.data, local: scopes.local },
    request: { method: request.method, url: request.url, headers: request.headers, body: request.body, auth: request.auth, name: request.name, id: request.id },
    response: input.response ? toIsolateResponse(input.response) : null,
    info: { ...input.info },
    cookies: input.cookies ?? input.response?.cookies.map((c) => ({ name: c.name, value: c.value, domain: c.domain, path: c.path })) ?? [],
    limits: { maxLogEntries: limits.maxLogEntries, maxLogBytes: limits.maxLogBytes, maxTests: limits.maxTests, ...FIXED_LIMITS },
  };
  return JSON.stringify(payload);
}

/** "Unexpected token '*' [script.js:2:4]" → message, line and column of the user's script. */
function syntaxError(e: unknown): ScriptError {
  const raw = (e as Error)?.message ?? String(e);
  const at = /\s*\[script\.js:(\d+):(\d+)\]$/.exec(raw);
  const error: ScriptError = { message: `SyntaxError: ${at ? raw.slice(0, at.index) : raw}`, kind: "syntax" };
  if (at) {
    error.line = Number(at[1]);
    error.column = Number(at[2]);
  }
  return error;
}

export class ScriptSandbox {
  /** The limit this sandbox was made with; a run may ask for another, for itself only. */
  readonly #defaultMemoryMb: number;
  /** The limit of the current isolate. */
  #memoryMb: number;
  #booted: Booted | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #runSeq = 0;
  #disposed = false;

  private constructor(memoryMb: number) {
    this.#defaultMemoryMb = memoryMb;
    this.#memoryMb = memoryMb;
  }

  static async create(opts: { memoryMb?: number } = {}): Promise<ScriptSandbox> {
    const sandbox = new ScriptSandbox(Math.max(8, Math.round(opts.memoryMb ?? DEFAULT_LIMITS.memoryMb)));
    await sandbox.#boot();
    return sandbox;
  }

  /** Runs one script; calls on one sandbox queue up and run one after another. */
  run(input: ScriptInput): Promise<ScriptOutcome> {
    const next = this.#queue.then(() => this.#runOne(input));
    this.#queue = next.catch(() => {});
    return next;
  }

  dispose(): void {
    this.#disposed = true;
    this.#release();
  }

  async #boot(): Promise<Booted> {
    const isolate = new ivm.Isolate({ memoryLimit: this.#memoryMb });
    try {
      const context = await isolate.createContext();
      const runtime = await compileRuntime(isolate);
      await runtime.run(context, { timeout: BOOT_TIMEOUT_MS });
      runtime.release();
      const api = (await context.global.get("__pmSandbox", { reference: true })) as ivm.Reference<Record<string, unknown>>;
      await context.global.delete("__pmSandbox");
      const fn = async (name: string) => (await api.get(name, { reference: true })) as ivm.Reference<(...args: unknown[]) => never>;
      const booted: Booted = { isolate, context, closing: false, compiled: new Map(), start: await fn("start"), fire: await fn("fire"), deliver: await fn("deliver"), settle: await fn("settle"), check: await fn("check") };
      api.release();
      this.#booted = booted;
      return booted;
    } catch (e) {
      if (!isolate.isDisposed) isolate.dispose();
      throw e;
    }
  }

  #release(): void {
    const booted = this.#booted;
    this.#booted = undefined;
    if (!booted) return;
    booted.closing = true;
    if (!booted.isolate.isDisposed) booted.isolate.dispose();
  }

  /** The user's script as a function of the context (wrapped so `await` and `return` work at its top level). */
  async #compile(booted: Booted, script: string): Promise<ivm.Reference<unknown> | ScriptError> {
    const cached = booted.compiled.get(script);
    if (cached) {
      booted.compiled.delete(script);
      booted.compiled.set(script, cached);
      return cached;
    }
    let compiled: ivm.Script;
    try {
      // The wrapper's first line is line 0, so errors point into the user's own lines.
      compiled = await booted.isolate.compileScript(`(async function () {\n${script}\n})`, { filename: SCRIPT_FILENAME, lineOffset: -1 });
    } catch (e) {
      return syntaxError(e);
    }
    try {
      const wrapped = await booted.check.apply(undefined, [script], { arguments: { copy: true }, result: { copy: true }, timeout: BOOT_TIMEOUT_MS });
      if (wrapped) return { message: `SyntaxError: ${wrapped} (the script must not close the function it runs in)`, kind: "syntax" };
      const fn = (await compiled.run(booted.context, { reference: true, timeout: BOOT_TIMEOUT_MS })) as ivm.Reference<unknown>;
      booted.compiled.set(script, fn);
      if (booted.compiled.size > COMPILED_CACHE) {
        const [oldest, ref] = booted.compiled.entries().next().value as [string, ivm.Reference<unknown>];
        booted.compiled.delete(oldest);
        ref.release();
      }
      return fn;
    } finally {
      compiled.release();
    }
  }

  async #runOne(input: ScriptInput): Promise<ScriptOutcome> {
    if (this.#disposed) throw new Error("this ScriptSandbox has been disposed");
    const startedAt = performance.now();
    const limits = limitsOf(input, this.#defaultMemoryMb);
    if (limits.memoryMb !== this.#memoryMb) {
      this.#memoryMb = limits.memoryMb;
      this.#release();
    }
    const booted = this.#booted && !this.#booted.isolate.isDisposed ? this.#booted : await this.#boot();
    const fn = await this.#compile(booted, input.script ?? "").catch((e: unknown) => {
      if (booted.isolate.isDisposed) return { message: `Script exceeded its memory limit (${limits.memoryMb} MB)`, kind: "memory" } satisfies ScriptError;
      return { message: `script sandbox failure: ${(e as Error)?.message ?? e}`, kind: "runtime" } satisfies ScriptError;
    });
    if (!(fn instanceof ivm.Reference)) return syntaxOutcome(input, fn, performance.now() - startedAt);
    const runId = ++this.#runSeq;
    const result = await new ScriptRun(booted, input, limits, runId, startedAt).execute(fn, isolateInput(input, limits, runId));
    // A script cut off mid-way may have left the context (or its own tampering) half done: start the next one clean.
    if (result.disposed || result.interrupted || booted.isolate.isDisposed) this.#release();
    return buildOutcome(input, result, performance.now() - startedAt);
  }
}

/** One script in a sandbox of its own, disposed after. */
export async function runScript(input: ScriptInput): Promise<ScriptOutcome> {
  const sandbox = await ScriptSandbox.create({ memoryMb: input.limits?.memoryMb });
  try {
    return await sandbox.run(input);
  } finally {
    sandbox.dispose();
  }
}
