// JUnit XML from any common producer as an imported run: Newman, Maven
// Surefire, pytest, jest-junit, Vitest and our own writer; a <testsuites>
// root or a single <testsuite> (Surefire, GitHub-style). Each testsuite
// becomes one request result and each testcase one test; our own reports
// also bring back method, URL, folders and iteration from their properties.
//
//  1. Refuse before parsing what would cost too much: the testcase count.
//  2. Read the XML safely (xml-reader: no DTD, no entity expansion).
//  3. Flatten suites (nested suites keep their parents' names as folders).
//  4. Per suite: tests from testcases, the error from <error> elements (or,
//     as Newman writes it, from the suite's errors count and <system-err>),
//     logs from <system-out>/<system-err>, time in seconds → ms.
//  5. Counts and statuses are computed (assembleImportedRun), never read.
import type { RunRequestResult } from "@/server/contracts/tester-run";
import type { ScriptLog, ScriptTest } from "@/server/contracts/tester-execution";
import { requestStatusFrom } from "../run-counts";
import { assembleImportedRun, type ImportedRun } from "./imported-run";
import { PATH_SEPARATOR, PROPERTY, parseLogs } from "./junit-layout";
import { ReportFormatError } from "./report-format-error";
import { readXml, type XmlNode } from "./xml-reader";

export const MAX_TESTCASES = 100_000;

const children = (node: XmlNode, name: string) => node.children.filter((c) => c.name === name);
const child = (node: XmlNode, name: string) => node.children.find((c) => c.name === name);

export function importJUnit(text: string, now: Date): ImportedRun {
  if (countTestcases(text, MAX_TESTCASES + 1) > MAX_TESTCASES) throw new ReportFormatError(`the report has more than ${MAX_TESTCASES} testcases, the most one import takes`);

  const root = readXml(text);
  if (root.name !== "testsuites" && root.name !== "testsuite") {
    throw new ReportFormatError(`the root element is <${root.name}>, not <testsuites> or <testsuite>: this is not a JUnit report`);
  }
  const suites: Array<{ node: XmlNode; parents: string[] }> = [];
  const collect = (node: XmlNode, parents: string[]) => {
    const nested = children(node, "testsuite");
    if (nested.length === 0 || child(node, "testcase")) suites.push({ node, parents });
    for (const n of nested) collect(n, [...parents, node.attrs.name ?? ""].filter(Boolean));
  };
  if (root.name === "testsuite") collect(root, []);
  else for (const s of children(root, "testsuite")) collect(s, []);

  const suiteStarts = suites.map((s) => timestamp(s.node.attrs.timestamp)).filter((t): t is string => t !== undefined);
  const startedAt = timestamp(root.attrs.timestamp) ?? (suiteStarts.length > 0 ? suiteStarts.reduce((a, b) => (a < b ? a : b)) : null);
  const results = suites.map((s) => resultOf(s.node, s.parents, startedAt ?? now.toISOString()));
  const suiteTimes = results.map((r) => r.responseTimeMs).filter((t): t is number => t !== null);
  const durationMs = milliseconds(root.attrs.time) ?? (suiteTimes.length > 0 ? roundMs(suiteTimes.reduce((a, b) => a + b, 0)) : null);
  const name = root.attrs.name?.trim() || (suites.length === 1 ? suites[0].node.attrs.name?.trim() : undefined) || "Imported JUnit report";
  return assembleImportedRun({ name, startedAt, durationMs }, results);
}

/** Testcase start tags, counted up to `stop` (a tag inside CDATA counts too: erring on the safe side). */
function countTestcases(text: string, stop: number): number {
  const tag = /<testcase[\s/>]/g;
  let count = 0;
  while (count < stop && tag.exec(text)) count++;
  return count;
}

function resultOf(suite: XmlNode, parents: string[], fallbackStart: string): RunRequestResult {
  const props = propertiesOf(suite);
  const ours = props.has(PROPERTY.request);
  const suiteName = suite.attrs.name ?? "";
  const cases = children(suite, "testcase");
  const mixedClasses = new Set(cases.map((c) => c.attrs.classname ?? "")).size > 1;
  let requestCase = ours ? props.get(PROPERTY.requestTestcase) : undefined;
  let own: Outcome | undefined;
  const tests: ScriptTest[] = [];
  const errors: string[] = [];
  const logs: ScriptLog[] = [];
  let testTimeMs: number | undefined;

  for (const c of cases) {
    const time = milliseconds(c.attrs.time);
    if (time !== undefined) testTimeMs = (testTimeMs ?? 0) + time;
    const outcome = outcomeOf(c);
    if (requestCase !== undefined && c.attrs.name === requestCase) {
      own = outcome;
      requestCase = undefined;
      continue;
    }
    const name = testName(c, suiteName, mixedClasses);
    if (outcome.status === "error") errors.push(`${name}: ${outcome.message}`);
    const status = outcome.status === "error" ? "failed" : outcome.status;
    tests.push(status === "failed" && outcome.message !== undefined ? { name, status, error: outcome.message } : { name, status });
    logs.push(...outputOf(c, name));
  }

  // Newman counts script and request errors on the suite and explains them only in <system-err>.
  const systemErr = children(suite, "system-err").map((e) => e.text.trim()).filter(Boolean).join("\n");
  const claimedErrors = Number(suite.attrs.errors ?? 0);
  let error: string | null = null;
  let errUsed = false;
  if (own?.status === "error") error = own.message ?? "the request could not be run";
  else if (errors.length > 0) error = errors.length === 1 ? errors[0] : `${errors.length} tests errored; the first: ${errors[0]}`;
  else if (claimedErrors > 0) {
    error = systemErr || `the report counts ${claimedErrors} error${claimedErrors === 1 ? "" : "s"} in this suite without saying what`;
    errUsed = systemErr !== "";
  }

  for (const out of children(suite, "system-out")) {
    if (ours) logs.push(...parseLogs(out.text));
    else logs.push(...textLog("log", out.text));
  }
  if (!errUsed) logs.push(...textLog("error", systemErr));

  const status = error ? "error" : own?.status === "failed" ? "failed" : own?.status === "skipped" && tests.length === 0 ? "skipped" : requestStatusFrom(tests, null);
  const named = ours ? ownName(props, suiteName) : foreignName(suiteName, parents);
  return {
    iteration: ours ? nonNegativeInt(props.get(PROPERTY.iteration)) ?? 0 : 0,
    collectionId: (ours && props.get(PROPERTY.collectionId)) || null,
    requestId: (ours && props.get(PROPERTY.requestId)) || null,
    name: named.name,
    path: named.path,
    method: (ours && props.get(PROPERTY.method)) || "",
    url: (ours && props.get(PROPERTY.url)) || "",
    status,
    responseCode: ours ? nonNegativeInt(props.get(PROPERTY.responseCode)) ?? null : null,
    responseTimeMs: milliseconds(suite.attrs.time) ?? (testTimeMs !== undefined ? roundMs(testTimeMs) : null),
    responseSize: ours ? nonNegativeInt(props.get(PROPERTY.responseSize)) ?? null : null,
    tests,
    logs,
    error,
    startedAt: timestamp(suite.attrs.timestamp) ?? fallbackStart,
  };
}

interface Outcome {
  status: "passed" | "failed" | "skipped" | "error";
  message?: string;
}

function outcomeOf(testcase: XmlNode): Outcome {
  // <rerunFailure>/<flakyFailure> (Surefire reruns) describe earlier attempts: the verdict is the last one.
  const error = child(testcase, "error");
  if (error) return { status: "error", message: messageOf(error) ?? "error" };
  const failure = child(testcase, "failure");
  if (failure) return { status: "failed", message: messageOf(failure) };
  if (child(testcase, "skipped")) return { status: "skipped" };
  return { status: "passed" };
}

/** The message attribute when there is one (the text is often a stack trace); else the text. */
function messageOf(el: XmlNode): string | undefined {
  return el.attrs.message?.trim() || el.text.trim() || undefined;
}

/** A suite mixing classes (pytest's single "pytest" suite) keeps each test's class in its name. */
function testName(testcase: XmlNode, suiteName: string, mixedClasses: boolean): string {
  const name = testcase.attrs.name ?? "(unnamed test)";
  const cls = testcase.attrs.classname;
  return mixedClasses && cls && cls !== name && cls !== suiteName && !name.startsWith(cls) ? `${cls} › ${name}` : name;
}

// pytest frames each captured stream with a "---- Captured Out ----" banner, even when it is empty.
const PYTEST_BANNER = /^-+ Captured (?:Out|Err|Log) -+$/gm;

function textLog(level: ScriptLog["level"], text: string, prefix = ""): ScriptLog[] {
  const message = text.replace(PYTEST_BANNER, "").trim();
  return message === "" ? [] : [{ level, message: prefix + message, at: 0 }];
}

function outputOf(testcase: XmlNode, name: string): ScriptLog[] {
  return [
    ...children(testcase, "system-out").flatMap((o) => textLog("log", o.text, `${name}: `)),
    ...children(testcase, "system-err").flatMap((o) => textLog("error", o.text, `${name}: `)),
  ];
}

function propertiesOf(suite: XmlNode): Map<string, string> {
  const props = new Map<string, string>();
  for (const list of children(suite, "properties")) {
    for (const p of children(list, "property")) if (p.attrs.name !== undefined) props.set(p.attrs.name, p.attrs.value ?? p.text);
  }
  return props;
}

function ownName(props: Map<string, string>, suiteName: string): { name: string; path: string[] } {
  const name = props.get(PROPERTY.request) ?? suiteName;
  try {
    const path: unknown = JSON.parse(props.get(PROPERTY.path) ?? "[]");
    if (Array.isArray(path) && path.every((p) => typeof p === "string")) return { name, path };
  } catch {}
  return { name, path: [] };
}

/** Newman names a suite "Folder / Request": the folders come back as the path. */
function foreignName(suiteName: string, parents: string[]): { name: string; path: string[] } {
  const parts = suiteName.split(PATH_SEPARATOR).map((p) => p.trim());
  const name = parts.pop() || "(unnamed suite)";
  return { name, path: [...parents, ...parts.filter(Boolean)] };
}

function nonNegativeInt(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,15}$/.test(text.trim())) return undefined;
  return Number(text);
}

const roundMs = (ms: number) => Math.round(ms * 1000) / 1000;

/** JUnit times are seconds: "0.120", "1,234.5" (old Surefire's thousands), "0,12" (a decimal comma). */
export function milliseconds(seconds: string | undefined): number | undefined {
  if (seconds === undefined) return undefined;
  let s = seconds.trim();
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replaceAll(",", "");
  else if (/^\d+,\d+$/.test(s)) s = s.replace(",", ".");
  if (!/^\d+(\.\d+)?([eE][-+]?\d+)?$/.test(s)) return undefined;
  return roundMs(Number(s) * 1000);
}

/** ISO 8601 in UTC; a timestamp without a zone (the JUnit schema's form) is read as UTC. */
export function timestamp(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const s = text.trim();
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(s) ? s : `${s}Z`;
  const ms = Date.parse(zoned);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
