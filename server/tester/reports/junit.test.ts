// The JUnit writer: the structure Jenkins, GitLab and GitHub reporters read,
// escaping of hostile text, and a round trip through our own importer.
import { XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { RunRequestResult, TestRunDetail } from "@/server/contracts/tester-run";
import { HOSTILE, result, runOf, sampleRun } from "./fixtures/sample-run";
import { parseReport } from "./import-report";
import { toJUnitXml } from "./junit";
import { readXml, type XmlNode } from "./xml-reader";

const kids = (node: XmlNode, name: string) => node.children.filter((c) => c.name === name);
const SECONDS = /^\d+\.\d{3,6}$/;

describe("the layout CI servers read", () => {
  const run = sampleRun();
  const xml = toJUnitXml(run);
  const root = readXml(xml);
  const suites = kids(root, "testsuite");

  it("is well-formed XML with an XML declaration and a <testsuites> root", () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml.startsWith(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites `)).toBe(true);
    expect(root.name).toBe("testsuites");
  });

  it("has one <testsuite> per request execution, named by folders and request, with the iteration", () => {
    expect(suites).toHaveLength(run.results.length);
    expect(suites.map((s) => s.attrs.name)).toEqual([
      "Orders / List orders (iteration 1)",
      "Orders / Writes / Create order (iteration 1)",
      "Health check (iteration 1)",
      "Misc / Ping (iteration 1)",
      "Orders / List orders (iteration 2)",
      "Orders / Writes / Create order (iteration 2)",
      "Health check (iteration 2)",
      "Misc / Ping (iteration 2)",
      "Orders / Writes / Delete order (iteration 2)",
      "Refund (iteration 2)",
    ]);
  });

  it("gives every suite the attributes the JUnit schema requires, and counts that match its testcases", () => {
    for (const suite of suites) {
      const cases = kids(suite, "testcase");
      const count = (el: string) => cases.filter((c) => kids(c, el).length > 0).length;
      expect(cases.length).toBeGreaterThan(0);
      expect(suite.attrs).toMatchObject({ tests: String(cases.length), failures: String(count("failure")), errors: String(count("error")), skipped: String(count("skipped")) });
      expect(suite.attrs.time).toMatch(SECONDS);
      expect(Number.isNaN(Date.parse(suite.attrs.timestamp))).toBe(false);
      expect(suite.attrs.id).toMatch(/^\d+$/);
      // XSD order: properties, testcase*, system-out.
      const order = suite.children.map((c) => c.name).filter((n, i, all) => all[i - 1] !== n);
      expect(["properties,testcase", "properties,testcase,system-out"]).toContain(order.join(","));
      for (const c of cases) {
        expect(Object.keys(c.attrs)).toEqual(["name", "classname", "time"]);
        expect(c.attrs.time).toMatch(SECONDS);
      }
    }
  });

  it("sums the suites on <testsuites> and takes the run's duration as its time", () => {
    const sum = (attr: string) => suites.reduce((n, s) => n + Number(s.attrs[attr]), 0);
    expect(root.attrs).toEqual({ name: "Orders API", tests: String(sum("tests")), failures: String(sum("failures")), errors: String(sum("errors")), time: "1.250" });
    expect(root.attrs).toMatchObject({ tests: "17", failures: "2", errors: "3" });
  });

  it("writes a failed test as <failure type message> and a skipped one as <skipped/>", () => {
    const create = suites[1];
    const [failed, passed, skipped] = kids(create, "testcase");
    expect(failed.attrs.name).toBe("Status code is 201");
    expect(kids(failed, "failure")[0].attrs).toEqual({ type: "AssertionFailure", message: "expected response to have status code 201 but got 400" });
    expect(kids(failed, "failure")[0].text).toBe("expected response to have status code 201 but got 400");
    expect(passed.children).toEqual([]);
    expect(kids(skipped, "skipped")).toHaveLength(1);
    expect(failed.attrs.classname).toBe("Orders.Writes.Create order (iteration 1)");
  });

  it("gives a request that could not be sent one testcase with <error>", () => {
    const [own] = kids(suites[2], "testcase");
    expect(own.attrs.name).toBe("Health check");
    expect(kids(own, "error")[0].attrs).toEqual({ type: "RequestError", message: "connect ECONNREFUSED 127.0.0.1:9" });
  });

  it("puts a script error before the tests that did run, with its kind and place", () => {
    const cases = kids(suites[9], "testcase");
    expect(cases.map((c) => c.attrs.name)).toEqual(["Refund", "answers"]);
    const error = kids(cases[0], "error")[0];
    expect(error.attrs.type).toBe("ScriptError");
    expect(error.text).toBe("TypeError: Cannot read properties of undefined (reading 'id')\nscript runtime error (line 3, column 17)");
  });

  it("gives a request without tests a passing testcase (or a skipped one) so it shows up", () => {
    expect(kids(suites[3], "testcase")).toEqual([{ name: "testcase", attrs: { name: "Ping", classname: "Misc.Ping (iteration 1)", time: "0.003" }, children: [], text: "" }]);
    expect(kids(kids(suites[8], "testcase")[0], "skipped")).toHaveLength(1);
  });

  it("writes the logs one per line in <system-out>", () => {
    expect(kids(suites[0], "system-out")[0].text).toBe("[info] found 2 orders\n[warn] slow page:\n  41 ms");
    expect(kids(suites[1], "system-out")).toEqual([]);
  });

  it("leaves the iteration out of names when the run had one", () => {
    const one = toJUnitXml(runOf([result({ name: "Ping", path: ["Misc"] })]));
    const suite = kids(readXml(one), "testsuite")[0];
    expect(suite.attrs.name).toBe("Misc / Ping");
    expect(kids(suite, "testcase")[0].attrs.classname).toBe("Misc.Ping");
  });

  it("writes dots in names as _ in classname so they do not start Java packages", () => {
    const suite = kids(readXml(toJUnitXml(runOf([result({ name: "GET v1.2", path: ["api.example.com"] })]))), "testsuite")[0];
    expect(kids(suite, "testcase")[0].attrs.classname).toBe("api_example_com.GET v1_2");
  });

  it("is a valid empty report for a run without results", () => {
    const xml = toJUnitXml(runOf([], { durationMs: null }));
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(readXml(xml).attrs).toEqual({ name: "Orders API", tests: "0", failures: "0", errors: "0", time: "0.000" });
  });
});

describe("escaping", () => {
  const hostile = runOf([
    result({
      name: HOSTILE.name,
      path: [HOSTILE.quote],
      url: "https://x/?a=1&b=<2>",
      tests: [
        { name: HOSTILE.name, status: "failed", error: HOSTILE.cdataEnd },
        { name: HOSTILE.control, status: "passed" },
        { name: "line\nbreak\ttab", status: "passed" },
      ],
      status: "failed",
      logs: [{ level: "log", message: `${HOSTILE.name} ${HOSTILE.control}`, at: 0 }],
    }),
  ], { name: HOSTILE.quote });
  const xml = toJUnitXml(hostile);

  it("stays well-formed XML", () => {
    expect(XMLValidator.validate(xml)).toBe(true);
  });

  it("never writes markup from names, messages or logs", () => {
    expect(xml).not.toMatch(/<script|<b>|<2>|]]>/);
  });

  it("strips control characters and terminal colour codes XML cannot carry", () => {
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]|\[31m/);
    const names = kids(kids(readXml(xml), "testsuite")[0], "testcase").map((c) => c.attrs.name);
    expect(names).toEqual([HOSTILE.name, "bell nul escred vt ok", "line\nbreak\ttab"]);
  });

  it("reads every text back exactly (apart from the stripped characters)", () => {
    const back = parseReport(xml).results[0];
    expect(back.name).toBe(HOSTILE.name);
    expect(back.path).toEqual([HOSTILE.quote]);
    expect(back.url).toBe("https://x/?a=1&b=<2>");
    expect(back.tests[0]).toEqual({ name: HOSTILE.name, status: "failed", error: HOSTILE.cdataEnd });
    expect(back.logs[0].message).toBe(`${HOSTILE.name} bell nul escred vt ok`);
    expect(parseReport(xml).name).toBe(HOSTILE.quote);
  });
});

describe("round trip through the importer", () => {
  const comparable = (r: RunRequestResult) => ({
    ...r,
    logs: r.logs.map((l) => ({ ...l, at: 0 })),
    scriptError: undefined,
    // No time is written as 0 s.
    responseTimeMs: r.responseTimeMs ?? 0,
  });

  it.each<[string, TestRunDetail]>([
    ["the sample run (two iterations, every outcome)", sampleRun()],
    ["a one-iteration run", runOf([result({ name: "Only", path: ["A", "B / C"], tests: [{ name: "t", status: "passed" }] })])],
  ])("%s comes back as the same results, counts and status", (_name, run) => {
    const back = parseReport(toJUnitXml(run));
    expect(back.results.map((r) => ({ ...r, scriptError: undefined }))).toEqual(run.results.map(comparable));
    expect(back.counts).toEqual(run.counts);
    expect(back.status).toBe(run.status);
    expect(back.iterations).toBe(run.iterations);
    expect(back.name).toBe(run.name);
    expect(back.durationMs).toBe(run.durationMs);
    expect(back.source).toBe("import");
  });

  it("keeps a failed request whose tests all passed failed", () => {
    const run = runOf([result({ name: "Odd", status: "failed", tests: [{ name: "t", status: "passed" }] })]);
    const back = parseReport(toJUnitXml(run));
    expect(back.results[0].status).toBe("failed");
    expect(back.results[0].tests).toEqual([{ name: "t", status: "passed" }]);
    expect(back.status).toBe("failed");
  });

  it("tells the request's own testcase from a test that has the same name", () => {
    const run = runOf([result({ name: "Same", status: "error", error: "boom", tests: [{ name: "Same", status: "passed" }] })]);
    const back = parseReport(toJUnitXml(run)).results[0];
    expect(back.tests).toEqual([{ name: "Same", status: "passed" }]);
    expect(back.error).toBe("boom");
  });
});
