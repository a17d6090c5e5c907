// The HTML report: self-contained, every value escaped, the summary and the
// per-iteration tables a reader needs.
import { describe, expect, it } from "vitest";
import { HOSTILE, result, runOf, sampleRun } from "./fixtures/sample-run";
import { toHtmlReport } from "./html";
import { formatDuration, formatMs, passRate } from "./report-numbers";

/** What a browser shows for a piece of escaped HTML text. */
const decodeHtml = (s: string) => s.replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[e] ?? "");

describe("a self-contained page", () => {
  const page = toHtmlReport(sampleRun());

  it("is one HTML document with its CSS inline", () => {
    expect(page.startsWith("<!DOCTYPE html>\n<html lang=\"en\">")).toBe(true);
    expect(page.trimEnd().endsWith("</html>")).toBe(true);
    expect(page.match(/<style>/g)).toHaveLength(1);
  });

  it("needs nothing from outside and runs no script", () => {
    expect(page).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|\shref=|@import|url\(|https?:\/\/(?!api\.example\.com|127\.0\.0\.1)/i);
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
  });

  it("shows the summary cards", () => {
    const cards = [...page.matchAll(/<div class="card[^"]*"><span class="label">([^<]+)<\/span><span class="value">([^<]+)<\/span>/g)].map((m) => [m[1], m[2]]);
    expect(cards).toEqual([
      ["Requests", "10"],
      ["Tests passed", "7"],
      ["Tests failed", "2"],
      ["Tests skipped", "2"],
      ["Duration", "1.25 s"],
      ["Pass rate", "77.8 %"],
    ]);
  });

  it("has a table per iteration with each request's method, URL, status code, time and result", () => {
    expect(page.match(/<table>/g)).toHaveLength(2);
    expect(page).toContain("<h2>Iteration 1 <span class=\"meta\">4 requests, 2 failed</span></h2>");
    expect(page).toContain("<h2>Iteration 2 <span class=\"meta\">6 requests, 3 failed</span></h2>");
    expect(page).toContain(
      `<tr class="request passed"><td>Orders / List orders</td><td>GET</td><td class="url">https://api.example.com/orders?page=1&amp;size=20</td><td>200</td><td>42 ms</td><td><span class="badge passed">passed</span></td></tr>`,
    );
    expect(page).toContain(`<tr class="request error"><td>Health check</td><td>GET</td><td class="url">http://127.0.0.1:9/health</td><td>—</td><td>—</td><td><span class="badge error">error</span></td></tr>`);
  });

  it("puts tests, errors and logs behind <details>, open for requests that did not pass", () => {
    const details = [...page.matchAll(/<details( open)?><summary>([^<]*)<\/summary>/g)].map((m) => [Boolean(m[1]), m[2]]);
    expect(details.slice(0, 4)).toEqual([
      [false, "Tests: 2 of 2 passed, 2 log lines"],
      [true, "Tests: 1 of 3 passed"],
      [true, "No tests"],
      // Iteration 2: Ping had nothing to expand.
      [false, "Tests: 2 of 2 passed, 2 log lines"],
    ]);
    expect(page).toContain(`<tr class="detail"><td colspan="6"><span class="empty">No tests</span></td></tr>`);
    expect(page).toContain(`<li><span class="mark failed">✗</span>Status code is 201<pre class="error">expected response to have status code 201 but got 400</pre></li>`);
    expect(page).toContain(`<pre class="error">connect ECONNREFUSED 127.0.0.1:9</pre>`);
    expect(page).toContain(`<pre class="logs">[info] found 2 orders\n[warn] slow page:\n  41 ms</pre>`);
  });

  it("says so when a run has no requests", () => {
    expect(toHtmlReport(runOf([], { durationMs: null }))).toContain(`<p class="empty">This run has no requests.</p>`);
  });
});

describe("escaping", () => {
  const run = runOf(
    [
      result({
        name: HOSTILE.name,
        path: [HOSTILE.quote],
        method: `<img src=x onerror=alert(1)>`,
        url: `javascript:alert(1)//"><script>alert(2)</script>`,
        status: "failed",
        tests: [
          { name: HOSTILE.name, status: "failed", error: `</pre><script>alert(3)</script>` },
          { name: HOSTILE.control, status: "passed" },
        ],
        logs: [{ level: "error", message: `<iframe src="https://evil.example"></iframe>`, at: 0 }],
        error: `<svg onload=alert(4)>`,
      }),
    ],
    { name: `</title><script>alert(5)</script>`, statusReason: `"><script>alert(6)</script>` },
  );
  const page = toHtmlReport(run);

  it("shows a test named <script>alert(1)</script> as text, never as an element", () => {
    expect(page).not.toMatch(/<script|<img|<svg|<iframe|<\/title><|<[^>]*\son(error|load)=/i);
    expect(page).toContain(`<li><span class="mark failed">✗</span>&lt;script&gt;alert(1)&lt;/script&gt;<pre class="error">&lt;/pre&gt;&lt;script&gt;alert(3)&lt;/script&gt;</pre></li>`);
  });

  it("shows every hostile value exactly once decoded", () => {
    const texts = [...page.matchAll(/>([^<>]+)</g)].map((m) => decodeHtml(m[1]));
    for (const value of [HOSTILE.name, `${HOSTILE.quote} / ${HOSTILE.name}`, `<img src=x onerror=alert(1)>`, `javascript:alert(1)//"><script>alert(2)</script>`, `<svg onload=alert(4)>`, `</title><script>alert(5)</script> · test report`]) {
      expect(texts).toContain(value);
    }
  });

  it("strips control characters and colour codes", () => {
    expect(page).toContain("bell nul escred vt ok");
    expect(page).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });
});

describe("numbers", () => {
  it.each<[number, number, string]>([
    [0, 0, "—"],
    [3, 0, "100 %"],
    [4, 1, "80 %"],
    [2, 1, "66.7 %"],
    [9999, 1, "99.9 %"],
    [0, 5, "0 %"],
  ])("%i passed and %i failed is a pass rate of %s", (passedTests, failedTests, rate) => {
    expect(passRate({ passedTests, failedTests })).toBe(rate);
  });

  it.each<[number | null, string]>([
    [null, "—"],
    [3, "3 ms"],
    [2.45, "2.5 ms"],
    [41.5, "42 ms"],
    [999, "999 ms"],
    [1250, "1.25 s"],
    [12_345, "12.3 s"],
    [119_600, "2 min 0 s"],
    [3_725_000, "1 h 2 min"],
  ])("a duration of %j ms reads %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("formats response times", () => {
    expect([formatMs(null), formatMs(0), formatMs(7.25), formatMs(1500)]).toEqual(["—", "0 ms", "7.3 ms", "1500 ms"]);
  });
});
