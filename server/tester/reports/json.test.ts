// The JSON report: a versioned envelope around the run, its schema, and the
// importer reading it back.
import { describe, expect, it } from "vitest";
import { sampleRun } from "./fixtures/sample-run";
import { parseReport } from "./import-report";
import { TestReportDocument, toJsonReport, toJsonReportText } from "./json";

describe("toJsonReport", () => {
  it("wraps the run in format and version", () => {
    const run = sampleRun();
    const doc = toJsonReport(run);
    expect(doc).toEqual({ format: "polymock-test-report", version: 1, run });
    expect(TestReportDocument.parse(doc)).toEqual(doc);
  });

  it("leaves out fields that are not part of the run's schema", () => {
    const run = { ...sampleRun(), prismaInternal: 42, results: [{ ...sampleRun().results[0], rowId: 7 }] };
    const doc = toJsonReport(run);
    expect(doc.run).not.toHaveProperty("prismaInternal");
    expect(doc.run.results[0]).not.toHaveProperty("rowId");
  });

  it("writes readable text the importer reads back", () => {
    const text = toJsonReportText(sampleRun());
    expect(text.startsWith('{\n  "format": "polymock-test-report",\n  "version": 1,\n  "run": {')).toBe(true);
    expect(text.endsWith("}\n")).toBe(true);
    expect(parseReport(text).results).toEqual(sampleRun().results);
  });

  it("refuses a document of another version in its schema", () => {
    expect(TestReportDocument.safeParse({ format: "polymock-test-report", version: 2, run: sampleRun() }).success).toBe(false);
  });
});
