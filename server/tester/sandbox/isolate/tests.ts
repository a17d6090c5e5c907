// Inside the isolate: pm.test and the legacy `tests["name"] = bool`. A test's
// error fails only that test; async tests (a returned promise, or a `done`
// parameter) stay pending until they settle, and the script waits for them.
import { testFailureMessage } from "./errors";
import type { Run } from "./run";

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return v !== null && (typeof v === "object" || typeof v === "function") && typeof (v as { then?: unknown }).then === "function";
}

export function makeTest(run: Run, pm: object) {
  const register = (name: unknown) => {
    if (run.flooded) throw run.flood(run.flooded);
    if (run.testCount >= run.limits.maxTests) throw run.flood(`Test limit reached: more than ${run.limits.maxTests} tests`);
    return { i: run.testCount++, name: String(name) };
  };
  const report = (slot: { i: number; name: string }, error?: unknown, failed = false) => {
    run.outbox.tests.push(failed ? { ...slot, status: "failed", error: testFailureMessage(error) } : { ...slot, status: "passed" });
  };

  const test = function (name: unknown, fn?: unknown) {
    const slot = register(name);
    if (typeof fn !== "function") {
      run.outbox.tests.push({ ...slot, status: "skipped" });
      return pm;
    }
    if (fn.length > 0) {
      // Mocha-style `done`: the test ends when done is called (with an error, it fails).
      let finished = false;
      const done = (err?: unknown) => {
        if (finished) return;
        finished = true;
        run.pendingTests--;
        report(slot, err, err !== undefined && err !== null);
      };
      run.pendingTests++;
      run.outbox.tests.push({ ...slot, status: "pending" });
      try {
        const r = fn.call(pm, done);
        if (isThenable(r)) r.then(undefined, (e) => done(e ?? new Error("the test's promise was rejected")));
      } catch (e) {
        done(e ?? new Error("the test threw"));
      }
      return pm;
    }
    let result: unknown;
    try {
      result = fn.call(pm);
    } catch (e) {
      report(slot, e, true);
      return pm;
    }
    if (!isThenable(result)) {
      report(slot);
      return pm;
    }
    run.pendingTests++;
    run.outbox.tests.push({ ...slot, status: "pending" });
    result.then(
      () => {
        run.pendingTests--;
        report(slot);
      },
      (e) => {
        run.pendingTests--;
        report(slot, e, true);
      },
    );
    return pm;
  };
  test.skip = function (name: unknown) {
    run.outbox.tests.push({ ...register(name), status: "skipped" });
    return pm;
  };
  test.index = () => run.testCount;
  return test;
}

/** Legacy `tests["name"] = value`: read once the script is over, truthy passes. */
export function collectLegacyTests(run: Run, tests: unknown): void {
  if (tests === null || typeof tests !== "object") return;
  for (const name of Object.keys(tests)) {
    if (run.testCount >= run.limits.maxTests) {
      run.flood(`Test limit reached: more than ${run.limits.maxTests} tests`);
      return;
    }
    const slot = { i: run.testCount++, name };
    const value = (tests as Record<string, unknown>)[name];
    run.outbox.tests.push(value ? { ...slot, status: "passed" } : { ...slot, status: "failed", error: `expected ${JSON.stringify(value) ?? String(value)} to be truthy` });
  }
}
