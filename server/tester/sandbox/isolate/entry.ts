// Inside the isolate: the bundle's entry (esbuild makes one script of this,
// chai and the modules beside it). Run once per context, it locks down the
// global object and leaves behind the four functions the host calls:
//   start(fn, input)  run the user's compiled script for a new Run
//   fire(run, id)     a timer the script set has come due
//   deliver(run, id, error, response)  pm.sendRequest's answer
//   settle(run, force) → JSON of the outbox, with the final state once idle
//   check(source) → "" when the source is a function body on its own
// The host takes that object by reference and deletes the global it was left in.
import chai from "chai";
import type { IsolateInput, Outbox } from "../protocol";
import { installPostmanAssertions } from "./chai-postman";
import { toRawError } from "./errors";
import { installGlobals, type Installed } from "./globals";
import { OutputLimitError, Run, SKIP_SIGNAL } from "./run";
import { collectLegacyTests } from "./tests";

const stringify = JSON.stringify;
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (body: string) => unknown;
const parse = JSON.parse;
const g = globalThis as Record<string, unknown>;

// No shared memory (Atomics.wait could park the isolate's thread) and no
// WebAssembly (nothing a test script needs, a larger surface to expose).
delete g.SharedArrayBuffer;
delete g.WebAssembly;
const atomics = g.Atomics as Record<string, unknown> | undefined;
if (atomics) {
  delete atomics.wait;
  delete atomics.waitAsync;
}
// Sugar's String#has, which Postman's legacy examples rely on (`responseBody.has("x")`).
Object.defineProperty(String.prototype, "has", {
  configurable: true,
  writable: true,
  value: function has(this: string, part: unknown) {
    return String(this).includes(String(part));
  },
});

installPostmanAssertions(chai);

let current: { run: Run; installed: Installed } | undefined;

function forRun(runId: number) {
  return current && current.run.id === runId ? current : undefined;
}

function start(fn: () => unknown, inputJson: string): void {
  const input = parse(inputJson) as IsolateInput;
  const run = new Run(input);
  const onError = (e: unknown) => {
    if (e === SKIP_SIGNAL) {
      run.ended = true;
      return;
    }
    if (e instanceof OutputLimitError) return void run.flood(e.message);
    run.fail(toRawError(e));
  };
  current = { run, installed: installGlobals(run, chai, onError) };
  let result: unknown;
  try {
    result = fn();
  } catch (e) {
    run.mainDone = true;
    onError(e);
    return;
  }
  Promise.resolve(result).then(
    () => {
      run.mainDone = true;
    },
    (e) => {
      run.mainDone = true;
      onError(e);
    },
  );
}

function fire(runId: number, timerId: number): void {
  forRun(runId)?.installed.timers.fire(timerId);
}

function deliver(runId: number, sendId: number, error: string | null, responseJson: string | null): void {
  forRun(runId)?.installed.send.deliver(sendId, error, responseJson);
}

function settle(runId: number, force: boolean): string {
  const c = forRun(runId);
  if (!c) return stringify({ logs: [], tests: [], timers: [], cancels: [], sends: [], error: { name: "Error", message: "the sandbox lost track of this script" } } satisfies Outbox);
  const { run, installed } = c;
  if ((run.idle || force) && !run.finalised) {
    run.finalised = true;
    collectLegacyTests(run, g.tests);
    run.outbox.final = {
      scopes: installed.stores.changed(),
      request: run.input.scriptType === "preRequest" ? installed.request.toScriptRequest(run.input.request.url) : undefined,
      nextRequest: run.nextRequest,
      visualizer: run.visualizer,
      skipRequest: run.skipRequest,
    };
  }
  const out = run.take();
  try {
    return stringify(out);
  } catch (e) {
    // Only reachable if the script tampered with JSON or prototypes; its results are then lost, not the host's.
    return stringify({ logs: [], tests: [], timers: [], cancels: [], sends: [], error: { name: "Error", message: `could not read the script's results: ${String((e as Error)?.message)}` } });
  }
}

/**
 * The host wraps a script in a function to compile it; text such as
 * `}); other(); (function () {` would close that wrapper and run outside it.
 * The Function constructor parses a body on its own, so it refuses such text.
 */
function check(source: string): string {
  try {
    new AsyncFunction(source);
    return "";
  } catch (e) {
    return String((e as Error)?.message ?? e);
  }
}

g.__pmSandbox = { start, fire, deliver, settle, check };
