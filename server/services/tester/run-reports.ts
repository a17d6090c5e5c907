// A test run as a downloadable report (JUnit XML for CI servers, one HTML
// page, our JSON), and a report from elsewhere brought in as a run.
import type { NamespaceScope } from "../namespace-access";
import { errors } from "@/server/errors";
import { toHtmlReport } from "@/server/tester/reports/html";
import { parseReport, ReportFormatError } from "@/server/tester/reports/import-report";
import { toJsonReportText } from "@/server/tester/reports/json";
import { toJUnitXml } from "@/server/tester/reports/junit";
import { db } from "@/server/db/client";
import { appendRunResults, createTestRun, getTestRun } from "./test-runs";

const FORMATS = {
  junit: { type: "application/xml; charset=utf-8", ext: "xml", write: toJUnitXml },
  html: { type: "text/html; charset=utf-8", ext: "html", write: toHtmlReport },
  json: { type: "application/json; charset=utf-8", ext: "json", write: toJsonReportText },
} as const;

const fileNameOf = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) || "test-run";

export async function exportTestRun(scope: NamespaceScope, id: string, format: keyof typeof FORMATS): Promise<Response> {
  const run = await getTestRun(scope, id);
  const f = FORMATS[format];
  return new Response(f.write(run), {
    headers: {
      "Content-Type": f.type,
      "Content-Disposition": `attachment; filename="${fileNameOf(run.name)}-${run.id.slice(0, 8)}.${f.ext}"`,
      // The HTML report is a document of its own: no scripts even if a name smuggled markup in.
      ...(format === "html" ? { "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:" } : {}),
    },
  });
}

export async function importTestReport(scope: NamespaceScope, actor: { user: { username: string } }, body: { text: string; fields: Record<string, unknown> }, query: { format?: "junit" | "json"; name?: string }) {
  const format = query.format ?? (body.fields.format === "junit" || body.fields.format === "json" ? body.fields.format : undefined);
  let imported;
  try {
    imported = parseReport(body.text, { format });
  } catch (err) {
    if (err instanceof ReportFormatError) {
      throw errors.validation(`The report could not be read: ${err.message}`, [{ location: "body", field: "", message: err.message, ...(err.line !== undefined ? { line: err.line, column: err.column } : {}) }]);
    }
    throw err;
  }
  const name = query.name ?? (typeof body.fields.name === "string" ? body.fields.name : undefined) ?? imported.name;
  const run = await createTestRun(scope, {
    name: name || "Imported report",
    mode: imported.mode,
    status: imported.status,
    referenceId: imported.referenceId,
    collectionIds: imported.collectionIds,
    environmentId: null,
    iterations: imported.iterations,
    createdBy: actor.user.username,
    source: "import",
    counts: imported.counts,
    statusReason: imported.statusReason,
    startedAt: imported.startedAt ? new Date(imported.startedAt) : null,
    finishedAt: imported.finishedAt ? new Date(imported.finishedAt) : null,
    durationMs: imported.durationMs,
  });
  try {
    await appendRunResults(run.id, imported.results);
  } catch (err) {
    // Nothing half-imported: the run goes with its results.
    await db().testRun.delete({ where: { id: run.id } }).catch(() => {});
    throw err;
  }
  return run;
}
