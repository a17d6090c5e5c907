// What Newman's cli reporter prints, for our results: each request as it
// finishes (method, URL, status, size, time, its assertions), then the table
// of executed/failed counts, the run's duration and response times, and the
// failures numbered as they were marked above.
import type { RunRequestResult } from "@/server/contracts/tester-run";

/** How many scripts of each stage run around a request (collection, folders, its own), as Newman counts them. */
export interface ScriptPresence {
  preRequest: number;
  test: number;
}

export interface Failure {
  kind: string;
  title: string;
  message: string;
  where: string;
}

export interface Painter {
  red(s: string): string;
  green(s: string): string;
  gray(s: string): string;
  bold(s: string): string;
}

export function painter(color: boolean): Painter {
  const wrap = (code: string) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { red: wrap("31"), green: wrap("32"), gray: wrap("90"), bold: wrap("1") };
}

const where = (r: Pick<RunRequestResult, "path" | "name">) => [...r.path, r.name].join(" / ");

function bytes(n: number | null): string {
  if (n === null) return "?";
  return n < 1024 ? `${n}B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)}kB` : `${(n / 1024 / 1024).toFixed(1)}MB`;
}

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.floor(ms / 60_000)}m ${Math.round((ms % 60_000) / 1000)}s`;
}

/** Which stage a result's error belongs to (the executor names it first). */
function errorStage(r: RunRequestResult): "prerequest" | "test" | "request" | null {
  if (!r.error) return null;
  if (r.error.startsWith("pre-request script")) return "prerequest";
  if (r.error.startsWith("test script")) return "test";
  return "request";
}

/** Failures of one result, in the order the cli reporter lists them. */
export function failuresOf(r: RunRequestResult): Failure[] {
  const out: Failure[] = [];
  const stage = errorStage(r);
  if (stage === "request") out.push({ kind: "Error", title: r.error!, message: r.error!, where: where(r) });
  else if (stage) out.push({ kind: `${r.scriptError?.kind === "syntax" ? "Syntax" : "Script"}Error`, title: `${stage === "test" ? "test" : "prerequest"}-script`, message: r.scriptError?.message ?? r.error!, where: where(r) });
  r.tests.forEach((t, i) => {
    if (t.status === "failed") out.push({ kind: "AssertionError", title: t.name, message: `${t.error ?? "failed"}\nat assertion:${i} in test-script`, where: where(r) });
  });
  return out;
}

/** Newman's folder heading, printed when a request's folder differs from the previous one's. */
export function folderLine(r: RunRequestResult, previous: RunRequestResult | undefined, p: Painter): string | null {
  if (!r.path.length) return null;
  const same = previous && previous.iteration === r.iteration && previous.path.join("\u0000") === r.path.join("\u0000");
  return same ? null : p.bold(`❏ ${r.path.join(" / ")}`);
}

/** One finished request, as the cli reporter prints it; `counter` numbers the failures across the run. */
export function requestLines(r: RunRequestResult, counter: { n: number }, p: Painter): string[] {
  // Newman's marks: → a request at the collection's root, ↳ one inside the folder named above it.
  const lines = [`${r.path.length ? "↳" : "→"} ${r.name}`];
  const timing = r.responseCode !== null ? `[${r.responseCode}, ${bytes(r.responseSize)}, ${duration(r.responseTimeMs ?? 0)}]` : r.status === "skipped" ? "[skipped]" : "[errored]";
  lines.push(`  ${r.method} ${r.url} ${r.responseCode !== null && r.responseCode < 400 ? timing : p.gray(timing)}`);
  for (const f of failuresOf(r)) {
    if (f.kind === "AssertionError") continue;
    lines.push(p.red(`  ${++counter.n}. ${f.kind}: ${f.message}`));
  }
  for (const t of r.tests) {
    if (t.status === "passed") lines.push(`  ${p.green("✓")}  ${t.name}`);
    else if (t.status === "skipped") lines.push(p.gray(`  -  ${t.name}`));
    else lines.push(p.red(`  ${++counter.n}. ${t.name}`));
  }
  return lines;
}

export interface SummaryInput {
  results: RunRequestResult[];
  iterations: number;
  durationMs: number;
  /** Which scripts each request has (local runs know; a server run's results do not say). */
  scripts?: (r: RunRequestResult) => ScriptPresence;
}

export interface SummaryNumbers {
  rows: [string, number, number][];
  failures: Failure[];
}

export function summaryNumbers(input: SummaryInput): SummaryNumbers {
  const { results } = input;
  const presence = input.scripts ?? ((r: RunRequestResult) => ({ preRequest: errorStage(r) === "prerequest" ? 1 : 0, test: r.tests.length > 0 || errorStage(r) === "test" ? 1 : 0 }));
  const count = (pred: (r: RunRequestResult) => boolean) => results.filter(pred).length;
  const sum = (n: (r: RunRequestResult) => number) => results.reduce((total, r) => total + n(r), 0);
  const failedIterations = new Set(results.filter((r) => r.status === "failed" || r.status === "error").map((r) => r.iteration)).size;
  const tests = results.flatMap((r) => r.tests);
  return {
    rows: [
      ["iterations", input.iterations, failedIterations],
      ["requests", count((r) => r.status !== "skipped" && (r.responseCode !== null || errorStage(r) === "request")), count((r) => errorStage(r) === "request")],
      ["test-scripts", sum((r) => (r.responseCode !== null || errorStage(r) === "test" ? presence(r).test : 0)), count((r) => errorStage(r) === "test")],
      ["prerequest-scripts", sum((r) => presence(r).preRequest), count((r) => errorStage(r) === "prerequest")],
      ["assertions", tests.filter((t) => t.status !== "skipped").length, tests.filter((t) => t.status === "failed").length],
    ],
    failures: results.flatMap(failuresOf),
  };
}

export function passed(results: RunRequestResult[]): boolean {
  return results.every((r) => r.status === "passed" || r.status === "skipped");
}

/** The table and the failure list, as text. */
export function summaryText(input: SummaryInput, p: Painter): string {
  const { rows, failures } = summaryNumbers(input);
  const times = input.results.map((r) => r.responseTimeMs).filter((t): t is number => t !== null);
  const avg = times.length ? times.reduce((a, b) => a + b, 0) / times.length : 0;
  const sd = times.length ? Math.sqrt(times.reduce((a, t) => a + (t - avg) ** 2, 0) / times.length) : 0;
  const footer = [
    `total run duration: ${duration(input.durationMs)}`,
    `total data received: ${bytes(input.results.reduce((n, r) => n + (r.responseSize ?? 0), 0))} (approx)`,
    times.length ? `average response time: ${duration(avg)} [min: ${duration(Math.min(...times))}, max: ${duration(Math.max(...times))}, s.d.: ${duration(sd)}]` : "average response time: -",
  ];
  const c1 = 26;
  const c2 = 10;
  const inner = c1 + 2 * c2 + 2;
  const width = Math.max(inner, ...footer.map((f) => f.length + 2));
  const pad1 = width - (c2 * 2 + 2);
  const line = (l: string, m: string, r: string, mid = "─") => `${l}${"─".repeat(pad1)}${m}${"─".repeat(c2)}${m}${"─".repeat(c2)}${r}`.replaceAll("─", mid);
  const out = [
    line("┌", "┬", "┐"),
    `│${" ".repeat(pad1)}│${"executed".padStart(c2 - 1)} │${"failed".padStart(c2 - 1)} │`,
    line("├", "┼", "┤"),
    ...rows.map(([name, executed, failed]) => `│${name.padStart(pad1 - 1)} │${String(executed).padStart(c2 - 1)} │${(failed ? p.red(String(failed).padStart(c2 - 1)) : String(failed).padStart(c2 - 1))} │`),
    line("├", "┴", "┤"),
    ...footer.map((f) => `│ ${f.padEnd(width - 1)}│`),
    `└${"─".repeat(width)}┘`,
  ];
  if (failures.length) {
    out.push("", `  #  failure         detail`, "");
    failures.forEach((f, i) => {
      const num = `${i + 1}.`.padStart(3);
      const [first, ...rest] = [f.title, ...f.message.split("\n").filter((l) => l !== f.title), `inside "${f.where}"`];
      out.push(p.red(`${num}  ${f.kind.padEnd(15)} ${first}`));
      for (const l of rest) out.push(`${" ".repeat(21)}${l}`);
      out.push("");
    });
  }
  return out.join("\n");
}
