// Importing reports: real JUnit files from Newman, jest-junit, pytest,
// Surefire and Vitest; our JSON report; detection; malformed and hostile
// documents; the caps.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sampleRun } from "./fixtures/sample-run";
import { ImportedRun, MAX_REPORT_BYTES, MAX_TESTCASES, ReportFormatError, parseReport } from "./import-report";
import { toJsonReportText } from "./json";
import { milliseconds, timestamp } from "./junit-import";

const NOW = new Date("2025-01-01T00:00:00.000Z");
const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");
const importFixture = (name: string) => parseReport(fixture(name), { now: NOW });
const brief = (run: ImportedRun) => run.results.map((r) => ({ path: r.path, name: r.name, status: r.status, tests: r.tests.map((t) => `${t.status} ${t.name}`) }));

function refusal(text: string, opts?: Parameters<typeof parseReport>[1]): ReportFormatError {
  try {
    parseReport(text, opts);
  } catch (err) {
    expect(err).toBeInstanceOf(ReportFormatError);
    return err as ReportFormatError;
  }
  throw new Error("expected a ReportFormatError");
}

describe("real JUnit producers", () => {
  it("Newman: folders from the suite name, failures with their message, an error told only by <system-err>", () => {
    const run = importFixture("newman-junit.xml");
    expect(ImportedRun.parse(run)).toEqual(run);
    expect(run.name).toBe("Orders API");
    expect(brief(run)).toEqual([
      { path: ["Orders"], name: "List orders", status: "passed", tests: ["passed Status code is 200", "passed returns <orders> & totals"] },
      { path: ["Orders"], name: "Create order", status: "failed", tests: ["failed Status code is 201", "passed has an id"] },
      { path: [], name: "Health check", status: "error", tests: [] },
      { path: [], name: "Ping", status: "passed", tests: [] },
    ]);
    expect(run.results[1].tests[0].error).toBe("expected response to have status code 201 but got 400");
    expect(run.results[2].error).toMatch(/^Iteration: 1\n[\s\S]*testScriptError: TypeError: Cannot read properties of undefined \(reading 'status'\)/);
    expect(run.results.map((r) => r.responseTimeMs)).toEqual([42, 120, 0, 3]);
    expect(run.counts).toEqual({ requests: 4, passedRequests: 2, failedRequests: 2, skippedRequests: 0, tests: 4, passedTests: 3, failedTests: 1, skippedTests: 0 });
    expect(run).toMatchObject({ status: "failed", source: "import", startedAt: "2024-06-03T10:15:00.000Z", durationMs: 165, finishedAt: "2024-06-03T10:15:00.165Z", iterations: 1 });
  });

  it("Newman: a request error in <system-err>", () => {
    const run = importFixture("newman-junit-one-iteration.xml");
    expect(run.results[2].error).toMatch(/RequestError: Error: connect ECONNREFUSED 127\.0\.0\.1:9/);
    expect(run.results[2].logs).toEqual([]);
  });

  it("jest-junit: a <failure> without a message attribute gives its text", () => {
    const run = importFixture("jest-junit.xml");
    expect(run.name).toBe("jest tests");
    expect(brief(run)).toEqual([
      { path: [], name: "orders", status: "failed", tests: ["passed orders list returns every order", "failed orders create answers <201> & an id", "skipped orders create refunds"] },
      { path: [], name: "health", status: "passed", tests: ["passed health is up"] },
    ]);
    expect(run.results[0].tests[1].error).toMatch(/^Error: expect\(received\)\.toBe\(expected\) \/\/ Object\.is equality\n\nExpected: 201\nReceived: 400\n {4}at Object\.<anonymous>/);
    expect(run.results.map((r) => r.responseTimeMs)).toEqual([312, 40]);
  });

  it("pytest: one suite mixing classes keeps each class in the test name; a setup error errors the suite", () => {
    const run = importFixture("pytest-junit.xml");
    expect(brief(run)).toEqual([
      {
        path: [],
        name: "pytest",
        status: "error",
        tests: [
          "passed test_orders › test_list_orders",
          "failed test_orders › test_order_total",
          "skipped test_orders › test_payment",
          "failed test_orders › test_with_broken_fixture",
          "passed test_orders.TestRefunds › test_refund_ok",
        ],
      },
    ]);
    const [r] = run.results;
    expect(r.tests[1].error).toBe("AssertionError: total <price> & tax\nassert (40 + 1) == 42");
    expect(r.error).toBe('test_orders › test_with_broken_fixture: failed on setup with "RuntimeError: database unavailable"');
    // Captured output without the empty "Captured Out" banners pytest writes for every test.
    expect(r.logs).toEqual([{ level: "log", message: "test_orders › test_order_total: total computed: 41", at: 0 }]);
    expect(run.startedAt).toBe("2026-11-25T00:58:51.712Z");
    expect(run.counts).toMatchObject({ tests: 5, passedTests: 2, failedTests: 2, skippedTests: 1 });
  });

  it("Surefire: a single <testsuite> root with namespace attributes and properties; CDATA stack traces", () => {
    const run = importFixture("surefire-TEST-com.example.orders.OrderApiTest.xml");
    expect(run.name).toBe("com.example.orders.OrderApiTest");
    expect(brief(run)).toEqual([
      { path: [], name: "com.example.orders.OrderApiTest", status: "error", tests: ["failed loadsCustomer", "passed listsOrders", "skipped paysOrder", "failed computesTotal"] },
    ]);
    expect(run.results[0].tests[3].error).toBe("total <price> & tax ==> expected: <42> but was: <41>");
    expect(run.results[0].error).toBe("loadsCustomer: database unavailable");
    expect(run.results[0].logs).toEqual([{ level: "log", message: "computesTotal: total computed: 41", at: 0 }]);
    // Surefire writes no timestamp: the run has none, the result takes the import time.
    expect(run.startedAt).toBeNull();
    expect(run.results[0].startedAt).toBe(NOW.toISOString());
    expect(run.durationMs).toBe(120);
  });

  it("Vitest: nine-decimal times and a testcase's <system-out>", () => {
    const run = importFixture("vitest-junit.xml");
    expect(brief(run)).toEqual([{ path: [], name: "orders.test.ts", status: "failed", tests: ["passed orders > lists orders", "failed orders > answers <201> & an id", "skipped orders > refunds"] }]);
    expect(run.results[0].responseTimeMs).toBe(17.776);
    expect(run.results[0].logs[0].message).toBe("orders > answers <201> & an id: POST /orders -> 400");
  });
});

describe("JUnit shapes", () => {
  it("reads a GitHub-style single <testsuite> without a declaration", () => {
    const run = parseReport(`<testsuite name="api" tests="2"><testcase name="a" time="0.5"/><testcase name="b"><failure message="no"/></testcase></testsuite>`, { now: NOW });
    expect(brief(run)).toEqual([{ path: [], name: "api", status: "failed", tests: ["passed a", "failed b"] }]);
    expect(run.results[0].tests[1].error).toBe("no");
    // No suite time: the testcases' times add up.
    expect(run.results[0].responseTimeMs).toBe(500);
    expect(run.name).toBe("api");
  });

  it("computes counts instead of trusting the file's", () => {
    const run = parseReport(`<testsuites tests="99" failures="0"><testsuite name="s" tests="50" failures="0" skipped="7"><testcase name="x"><failure/></testcase></testsuite></testsuites>`);
    expect(run.counts).toMatchObject({ tests: 1, failedTests: 1, skippedTests: 0 });
    expect(run.status).toBe("failed");
    expect(run.results[0].tests[0]).toEqual({ name: "x", status: "failed" });
  });

  it("keeps the names of enclosing suites as folders", () => {
    const run = parseReport(`<testsuites><testsuite name="outer"><testsuite name="inner"><testcase name="t"/></testsuite><testsuite name="Folder / leaf"><testcase name="u"/></testsuite></testsuite></testsuites>`);
    expect(run.results.map((r) => [r.path, r.name])).toEqual([
      [["outer"], "inner"],
      [["outer", "Folder"], "leaf"],
    ]);
  });

  it("keeps a suite without testcases as a request without tests", () => {
    expect(brief(parseReport(`<testsuites><testsuite name="empty" tests="0"/></testsuites>`))).toEqual([{ path: [], name: "empty", status: "passed", tests: [] }]);
  });

  it("takes an <error> without a message from its text, or says error", () => {
    const run = parseReport(`<testsuite name="s"><testcase name="a"><error>  boom\n</error></testcase><testcase name="b"><error/></testcase></testsuite>`);
    expect(run.results[0].tests).toEqual([
      { name: "a", status: "failed", error: "boom" },
      { name: "b", status: "failed", error: "error" },
    ]);
    expect(run.results[0].error).toBe("2 tests errored; the first: a: boom");
  });

  it("names a suite's errors it does not explain", () => {
    expect(parseReport(`<testsuite name="s" errors="2"/>`).results[0].error).toBe("the report counts 2 errors in this suite without saying what");
  });

  it("decodes character references but leaves CDATA and unknown entities as written", () => {
    const run = parseReport(`<testsuite name="a&#10;b &#x263A; &amp;amp;"><testcase name="&lt;x&gt; &nbsp; &#0;"><failure message="line1&#10;line2 &quot;q&quot;"><![CDATA[&amp; <raw>]]></failure></testcase></testsuite>`);
    expect(run.results[0].name).toBe("a\nb ☺ &amp;");
    expect(run.results[0].tests[0]).toEqual({ name: "<x> &nbsp; ", status: "failed", error: 'line1\nline2 "q"' });
    const cdata = parseReport(`<testsuite name="s"><testcase name="t"><failure><![CDATA[&amp; <raw>]]></failure></testcase></testsuite>`);
    expect(cdata.results[0].tests[0].error).toBe("&amp; <raw>");
  });

  it("turns a literal line break in an attribute into a space, as XML says", () => {
    expect(parseReport(`<testsuite name="a\nb\tc"/>`).results[0].name).toBe("a b c");
  });

  it.each<[string | undefined, number | undefined]>([
    ["0.120", 120],
    ["12", 12000],
    ["0.017776450", 17.776],
    ["1,234.5", 1234500],
    ["0,25", 250],
    ["1e-3", 1],
    ["", undefined],
    ["-1", undefined],
    ["fast", undefined],
    [undefined, undefined],
  ])("reads the time %j as %j ms", (text, ms) => {
    expect(milliseconds(text)).toBe(ms);
  });

  it.each<[string | undefined, string | undefined]>([
    ["2024-06-03T10:15:00.000Z", "2024-06-03T10:15:00.000Z"],
    ["2024-06-03T10:15:00", "2024-06-03T10:15:00.000Z"],
    ["2026-11-25T00:58:51.712130+00:00", "2026-11-25T00:58:51.712Z"],
    ["2024-06-03T12:15:00+02:00", "2024-06-03T10:15:00.000Z"],
    ["yesterday", undefined],
    [undefined, undefined],
  ])("reads the timestamp %j as %j", (text, iso) => {
    expect(timestamp(text)).toBe(iso);
  });
});

describe("our JSON report", () => {
  it("comes back as the run, with the service's fields left out and counts recomputed", () => {
    const run = sampleRun();
    const tampered = JSON.parse(toJsonReportText(run));
    tampered.run.counts.failedTests = 0;
    tampered.run.status = "passed";
    const back = parseReport(JSON.stringify(tampered));
    const { id: _id, namespace: _ns, createdBy: _by, createdAt: _at, ...rest } = run;
    expect(back).toEqual({ ...rest, source: "import" });
    expect(back.status).toBe("failed");
  });

  it("keeps cancelled and error, which counts cannot show", () => {
    const run = { ...sampleRun(), status: "cancelled" as const, statusReason: "stopped by ann" };
    expect(parseReport(toJsonReportText(run))).toMatchObject({ status: "cancelled", statusReason: "stopped by ann" });
  });

  it.each<[string, string, RegExp]>([
    ["another JSON document", '{"collection":{},"run":{}}', /not a polymock test report \(it has no "format": "polymock-test-report"\)/],
    ["a later version", '{"format":"polymock-test-report","version":2,"run":{}}', /version 2 of the test report format is not supported; this server reads version 1/],
    ["a run that breaks the schema", JSON.stringify({ format: "polymock-test-report", version: 1, run: { ...sampleRun(), results: [{ ...sampleRun().results[0], status: "green" }] } }), /^the report's run is not valid: run\.results\[0\]\.status: /],
    ["malformed JSON", '{"format": "polymock-test-report",\n "version": 1,,}', /^invalid JSON: Expected double-quoted property name \(line 2, column 15\)$/],
  ])("refuses %s", (_name, text, message) => {
    expect(refusal(text).message).toMatch(message);
  });
});

describe("detection", () => {
  it("skips a BOM and leading whitespace", () => {
    expect(parseReport(`\uFEFF\n  <testsuite name="s"/>`).results).toHaveLength(1);
    expect(parseReport(`\uFEFF ${toJsonReportText(sampleRun())}`).results).toHaveLength(sampleRun().results.length);
  });

  it("skips blank lines before the XML declaration, and still counts them in an error's line", () => {
    expect(parseReport(`\n\n  <?xml version="1.0"?>\n<testsuite name="s"/>`).results).toHaveLength(1);
    expect(refusal(`\n\n<?xml version="1.0"?>\n<testsuite name="s">`).line).toBe(4);
  });

  it("follows the caller's format", () => {
    expect(refusal(`<testsuite/>`, { format: "json" }).message).toMatch(/^invalid JSON/);
  });

  it.each<[string, string, RegExp]>([
    ["empty text", "  \n", /^the report is empty$/],
    ["plain text", "PASS 3 tests", /neither JUnit XML \(which starts with <\) nor a polymock JSON test report \(which starts with \{\)/],
    ["a JSON array", "[1]", /neither JUnit XML/],
    ["an HTML page", "<html><body>hi</body></html>", /the root element is <html>, not <testsuites> or <testsuite>: this is not a JUnit report/],
  ])("refuses %s", (_name, text, message) => {
    expect(refusal(text).message).toMatch(message);
  });
});

describe("malformed and hostile XML", () => {
  it("names the line and column of a syntax error", () => {
    const err = refusal(`<?xml version="1.0"?>\n<testsuites>\n  <testsuite name="a">\n    <testcase name="b">\n  </testsuite>\n</testsuites>`);
    expect(err.message).toMatch(/^invalid XML: Expected closing tag 'testcase' .* \(line 5, column \d+\)$/);
    expect(err.line).toBe(5);
    expect(err.column).toBeGreaterThan(0);
  });

  it.each([
    ["an unclosed attribute", `<testsuite name="a><testcase/></testsuite>`],
    ["two roots", `<testsuite name="a"/><testsuite name="b"/>`],
    ["text only", `<`],
  ])("refuses %s", (_name, text) => {
    expect(refusal(text).message).toMatch(/^invalid XML: /);
  });

  it("refuses a billion-laughs document before expanding anything", () => {
    const lol = [
      `<?xml version="1.0"?>`,
      `<!DOCTYPE lolz [`,
      ` <!ENTITY lol "lol">`,
      ...Array.from({ length: 9 }, (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`),
      `]>`,
      `<testsuites><testsuite name="&lol9;"><testcase name="&lol9;"/></testsuite></testsuites>`,
    ].join("\n");
    const started = performance.now();
    const err = refusal(lol);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(err.message).toMatch(/^a document type declaration \(<!DOCTYPE>\) is not accepted/);
    expect([err.line, err.column]).toEqual([2, 1]);
  });

  it("refuses an external entity (XXE)", () => {
    const err = refusal(`<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<testsuite name="&xxe;"/>`);
    expect(err.message).toMatch(/DOCTYPE/);
  });

  it("reads a stray ampersand as text, as browsers and most CI servers do", () => {
    expect(parseReport(`<testsuite name="a & b"><testcase name="x &y"/></testsuite>`).results[0]).toMatchObject({ name: "a & b", tests: [{ name: "x &y" }] });
  });

  it("leaves an undeclared entity reference as text", () => {
    expect(parseReport(`<testsuite name="&lol9;"/>`).results[0].name).toBe("&lol9;");
  });

  it("refuses nesting deeper than any report has", () => {
    const deep = `${"<testsuite>".repeat(150)}${"</testsuite>".repeat(150)}`;
    expect(refusal(deep).message).toMatch(/^invalid XML: /);
  });
});

describe("caps", () => {
  it(`refuses a report over ${MAX_REPORT_BYTES / 1024 / 1024} MiB`, () => {
    const big = `<testsuite name="s">${" ".repeat(MAX_REPORT_BYTES)}</testsuite>`;
    expect(refusal(big).message).toBe("the report is larger than 20 MiB");
  });

  it(`takes ${MAX_TESTCASES} testcases and refuses one more`, () => {
    const report = (n: number) => `<testsuite name="s">${`<testcase name="t"/>`.repeat(n)}</testsuite>`;
    expect(parseReport(report(MAX_TESTCASES)).counts.tests).toBe(MAX_TESTCASES);
    expect(refusal(report(MAX_TESTCASES + 1)).message).toBe(`the report has more than ${MAX_TESTCASES} testcases, the most one import takes`);
  });
});
