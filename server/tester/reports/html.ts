// A run as one self-contained HTML page for people: summary cards, then a
// table per iteration with each request and its tests behind <details>
// (opened for the ones that did not pass). Every value from the run is
// escaped, and the page's Content-Security-Policy forbids scripts and
// outside resources, so even a name that slipped through could not run.
import type { RunRequestResult, TestRunDetail } from "@/server/contracts/tester-run";
import { REPORT_CSS } from "./html-style";
import { formatDuration, formatMs, passRate } from "./report-numbers";
import { html } from "./text-escape";

const MARK = { passed: "✓", failed: "✗", skipped: "–" } as const;
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

export function toHtmlReport(run: TestRunDetail): string {
  const c = run.counts;
  const cards = [
    card("Requests", c.requests, `${c.failedRequests} failed · ${c.skippedRequests} skipped`),
    card("Tests passed", c.passedTests, `of ${c.tests}`, "passed"),
    card("Tests failed", c.failedTests, `of ${c.tests}`, c.failedTests > 0 ? "failed" : undefined),
    card("Tests skipped", c.skippedTests, `of ${c.tests}`, c.skippedTests > 0 ? "skipped" : undefined),
    card("Duration", formatDuration(run.durationMs), run.iterations > 1 ? `${run.iterations} iterations` : "1 iteration"),
    card("Pass rate", passRate(c), "of tests that ran"),
  ];
  const meta = [
    `<span class="badge ${html(run.status)}">${html(run.status)}</span>`,
    run.startedAt ? `started ${html(run.startedAt)}` : undefined,
    run.finishedAt ? `finished ${html(run.finishedAt)}` : undefined,
    `${html(run.mode)} run`,
    run.source === "import" ? "imported report" : undefined,
    run.statusReason ? html(run.statusReason) : undefined,
  ].filter(Boolean);

  return [
    "<!DOCTYPE html>",
    `<html lang="en">`,
    "<head>",
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    `<title>${html(run.name)} · test report</title>`,
    `<style>${REPORT_CSS}</style>`,
    "</head>",
    "<body>",
    "<header>",
    `<h1>${html(run.name)}</h1>`,
    `<p class="meta">${meta.join(" · ")}</p>`,
    "</header>",
    `<section class="cards">${cards.join("")}</section>`,
    ...iterations(run),
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function card(label: string, value: string | number, sub: string, tone?: string): string {
  return `<div class="card${tone ? ` ${tone}` : ""}"><span class="label">${html(label)}</span><span class="value">${html(value)}</span><span class="sub">${html(sub)}</span></div>`;
}

function iterations(run: TestRunDetail): string[] {
  if (run.results.length === 0) return [`<p class="empty">This run has no requests.</p>`];
  const byIteration = new Map<number, RunRequestResult[]>();
  for (const r of run.results) {
    const list = byIteration.get(r.iteration);
    if (list) list.push(r);
    else byIteration.set(r.iteration, [r]);
  }
  const numbers = [...byIteration.keys()].sort((a, b) => a - b);
  return numbers.map((i) => {
    const results = byIteration.get(i) ?? [];
    const failed = results.filter((r) => r.status === "failed" || r.status === "error").length;
    return [
      `<section class="iteration">`,
      `<h2>Iteration ${i + 1} <span class="meta">${results.length} request${results.length === 1 ? "" : "s"}, ${failed} failed</span></h2>`,
      `<table>`,
      `<thead><tr><th class="request">Request</th><th class="method">Method</th><th>URL</th><th class="code">Status</th><th class="time">Time</th><th class="result">Result</th></tr></thead>`,
      `<tbody>`,
      ...results.map(requestRows),
      `</tbody>`,
      `</table>`,
      `</section>`,
    ].join("\n");
  });
}

function requestRows(r: RunRequestResult): string {
  const name = [...r.path, r.name].join(" / ");
  const passed = r.tests.filter((t) => t.status === "passed").length;
  const open = r.status === "failed" || r.status === "error" ? " open" : "";
  const summary = r.tests.length > 0 ? `Tests: ${passed} of ${r.tests.length} passed` : "No tests";
  const tests = r.tests.map(
    (t) => `<li><span class="mark ${html(t.status)}">${html(MARK[t.status])}</span>${html(t.name)}${t.error ? `<pre class="error">${html(t.error)}</pre>` : ""}</li>`,
  );
  const error = r.error ?? r.scriptError?.message;
  const detail = !error && tests.length === 0 && r.logs.length === 0 ? `<span class="empty">No tests</span>` : [
    `<details${open}><summary>${summary}${r.logs.length > 0 ? `, ${r.logs.length} log line${r.logs.length === 1 ? "" : "s"}` : ""}</summary>`,
    error ? `<pre class="error">${html(error)}</pre>` : "",
    tests.length > 0 ? `<ul class="tests">${tests.join("")}</ul>` : "",
    r.logs.length > 0 ? `<pre class="logs">${html(r.logs.map((l) => `[${l.level}] ${l.message}`).join("\n"))}</pre>` : "",
    `</details>`,
  ].join("");
  return [
    `<tr class="request ${html(r.status)}">`,
    `<td>${html(name)}</td>`,
    `<td>${html(r.method || "—")}</td>`,
    `<td class="url">${html(r.url || "—")}</td>`,
    `<td>${html(r.responseCode ?? "—")}</td>`,
    `<td>${html(formatMs(r.responseTimeMs))}</td>`,
    `<td><span class="badge ${html(r.status)}">${html(r.status)}</span></td>`,
    `</tr>`,
    `<tr class="detail"><td colspan="6">${detail}</td></tr>`,
  ].join("");
}
