// A run as JUnit XML in the layout Newman's junit reporter writes and CI
// servers read (Jenkins' junit step, GitLab's artifacts:reports:junit,
// GitHub test-report actions): <testsuites> → one <testsuite> per request
// execution → one <testcase> per test. Unlike Newman, every execution is its
// own suite (Newman keeps only the last iteration of each request), and a
// request without tests, or one that errored, still gets a testcase so CI
// shows it.
import type { RunRequestResult, TestRunDetail } from "@/server/contracts/tester-run";
import { PROPERTY, className, formatLogs, suiteName } from "./junit-layout";
import { xmlAttr, xmlText } from "./text-escape";

/** Seconds as JUnit writes them: three decimals like Newman, more when the milliseconds have a fraction. */
const seconds = (ms: number | null | undefined) => ((ms ?? 0) / 1000).toFixed(6).replace(/0{1,3}$/, "");

interface Suite {
  xml: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

export function toJUnitXml(run: TestRunDetail): string {
  const withIteration = run.iterations > 1 || run.results.some((r) => r.iteration > 0);
  const suites = run.results.map((result, index) => suiteOf(result, index, withIteration));
  const total = (key: "tests" | "failures" | "errors") => suites.reduce((n, s) => n + s[key], 0);
  const time = run.durationMs ?? run.results.reduce((ms, r) => ms + (r.responseTimeMs ?? 0), 0);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xmlAttr(run.name)}" tests="${total("tests")}" failures="${total("failures")}" errors="${total("errors")}" time="${seconds(time)}">`,
    ...suites.map((s) => s.xml),
    `</testsuites>`,
    "",
  ].join("\n");
}

function suiteOf(result: RunRequestResult, index: number, withIteration: boolean): Suite {
  const classname = className(result, withIteration);
  const cases: string[] = [];
  const suite: Suite = { xml: "", tests: 0, failures: 0, errors: 0, skipped: 0 };
  const testcase = (name: string, time: string, body: string) => {
    suite.tests++;
    const open = `    <testcase name="${xmlAttr(name)}" classname="${xmlAttr(classname)}" time="${time}"`;
    cases.push(body === "" ? `${open}/>` : `${open}>\n      ${body}\n    </testcase>`);
  };

  const own = requestCase(result);
  if (own) {
    if (own.kind === "error") suite.errors++;
    else if (own.kind === "failure") suite.failures++;
    else if (own.kind === "skipped") suite.skipped++;
    testcase(result.name, seconds(result.responseTimeMs), own.xml);
  }
  for (const test of result.tests) {
    // Scripts do not time single tests; the request's time is on the suite.
    if (test.status === "failed") {
      suite.failures++;
      const message = test.error ?? "failed";
      testcase(test.name, "0.000", `<failure type="AssertionFailure" message="${xmlAttr(message)}">${xmlText(message)}</failure>`);
    } else if (test.status === "skipped") {
      suite.skipped++;
      testcase(test.name, "0.000", "<skipped/>");
    } else testcase(test.name, "0.000", "");
  }

  const attrs = [
    `name="${xmlAttr(suiteName(result, withIteration))}"`,
    `id="${index}"`,
    `tests="${suite.tests}"`,
    `failures="${suite.failures}"`,
    `errors="${suite.errors}"`,
    `skipped="${suite.skipped}"`,
    `time="${seconds(result.responseTimeMs)}"`,
    `timestamp="${xmlAttr(result.startedAt)}"`,
  ];
  const logs = result.logs.length > 0 ? [`    <system-out>${xmlText(formatLogs(result.logs))}</system-out>`] : [];
  suite.xml = [`  <testsuite ${attrs.join(" ")}>`, properties(result, own ? result.name : undefined), ...cases, ...logs, `  </testsuite>`].join("\n");
  return suite;
}

/** The testcase standing for the request itself, when the tests alone would not show its outcome. */
function requestCase(result: RunRequestResult): { kind: "error" | "failure" | "skipped" | "passed"; xml: string } | undefined {
  const failedTest = result.tests.some((t) => t.status === "failed");
  if (result.status === "error" || result.error) {
    const message = result.error ?? result.scriptError?.message ?? "the request could not be run";
    const where = result.scriptError?.line ? ` (line ${result.scriptError.line}${result.scriptError.column ? `, column ${result.scriptError.column}` : ""})` : "";
    const detail = result.scriptError ? `${message}\nscript ${result.scriptError.kind} error${where}` : message;
    const type = result.scriptError ? "ScriptError" : "RequestError";
    return { kind: "error", xml: `<error type="${type}" message="${xmlAttr(message)}">${xmlText(detail)}</error>` };
  }
  if (result.status === "failed" && !failedTest) {
    return { kind: "failure", xml: `<failure type="RequestFailure" message="the request failed">the request failed</failure>` };
  }
  if (result.tests.length > 0) return undefined;
  if (result.status === "skipped") return { kind: "skipped", xml: `<skipped message="the request was skipped"/>` };
  return { kind: "passed", xml: "" };
}

function properties(result: RunRequestResult, requestTestcase: string | undefined): string {
  const entries: [string, string | number | null | undefined][] = [
    [PROPERTY.request, result.name],
    [PROPERTY.path, JSON.stringify(result.path)],
    [PROPERTY.iteration, result.iteration],
    [PROPERTY.method, result.method],
    [PROPERTY.url, result.url],
    [PROPERTY.responseCode, result.responseCode],
    [PROPERTY.responseSize, result.responseSize],
    [PROPERTY.collectionId, result.collectionId],
    [PROPERTY.requestId, result.requestId],
    [PROPERTY.requestTestcase, requestTestcase],
  ];
  const lines = entries.filter(([, v]) => v !== null && v !== undefined).map(([name, v]) => `      <property name="${name}" value="${xmlAttr(String(v))}"/>`);
  return ["    <properties>", ...lines, "    </properties>"].join("\n");
}
