"use client";
// A collection run's results, as Postman's runner shows them: the run's
// status and summary cards, a progress bar while it runs, then one row per
// request and iteration (method, name under its folder path, URL, status
// code, time, tests) that opens into its tests, errors and logs. Filters by
// outcome and iteration; exports JUnit, HTML and JSON reports (links or callbacks).
import { ChevronDown, ChevronRight, FileDown, ListChecks, Square } from "lucide-react";
import { useMemo, useState } from "react";
import { cn } from "@/components/lib/cn";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { type DataColumn, DataTable } from "@/components/ui/data-table";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { formatDateTime } from "@/components/lib/format";
import type { RunRequestResult, TestRunDetail } from "@/server/contracts/tester-run";
import { ConsoleLogs } from "./console-logs";
import { FilterChips } from "./filter-chips";
import { formatBytes, formatMs } from "./format";
import { MethodBadge } from "./method-badge";
import { statusClass } from "./response-status";
import { RunStatusBadge, RunSummary } from "./run-summary";
import { TestResults } from "./test-results";

export type ReportFormat = "junit" | "html" | "json";
const FORMAT_LABEL: Record<ReportFormat, string> = { junit: "JUnit XML", html: "HTML", json: "JSON" };

type Outcome = "all" | "passed" | "failed";
type Row = RunRequestResult & { key: string };

export interface RunResultsProps {
  run: TestRunDetail;
  /** While the run is going: how many requests are done of how many. */
  progress?: { done: number; total: number } | null;
  /** Report download links by format (e.g. the export endpoint's URL). */
  exportHrefs?: Partial<Record<ReportFormat, string>>;
  /** Or a callback per format, when the page builds the report itself. */
  onExport?: (format: ReportFormat) => void;
  onCancel?: () => void;
}

function failedRow(r: RunRequestResult) {
  return r.status === "failed" || r.status === "error";
}

export function RunResults({ run, progress, exportHrefs, onExport, onCancel }: RunResultsProps) {
  const [outcome, setOutcome] = useState<Outcome>("all");
  const [iteration, setIteration] = useState<string>("all");
  const [open, setOpen] = useState<string | null>(null);
  const rows = useMemo<Row[]>(() => run.results.map((r, i) => ({ ...r, key: `${r.iteration}-${i}` })), [run.results]);
  const shown = rows.filter((r) => (outcome === "all" || (outcome === "failed" ? failedRow(r) : r.status === "passed")) && (iteration === "all" || r.iteration === Number(iteration)));
  const failedCount = rows.filter(failedRow).length;
  const live = run.status === "running" || run.status === "queued";
  const formats = (["junit", "html", "json"] as const).filter((f) => exportHrefs?.[f] || onExport);

  const columns = useMemo<DataColumn<Row>[]>(
    () => [
      {
        id: "details",
        header: "",
        srHeader: "Details",
        headClassName: "w-8",
        cell: (r) => (
          <Button variant="ghost" size="icon-sm" aria-expanded={open === r.key} aria-label={`Details of ${r.name}`} onClick={() => setOpen(open === r.key ? null : r.key)}>
            {open === r.key ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
          </Button>
        ),
      },
      ...(run.iterations > 1 ? [{ id: "iteration", header: "#", headClassName: "w-10", className: "tabular-nums text-muted-foreground", cell: (r: Row) => r.iteration + 1 }] : []),
      { id: "method", header: "Method", headClassName: "w-20", cell: (r) => <MethodBadge method={r.method} /> },
      {
        id: "name",
        header: "Request",
        className: "max-w-72",
        cell: (r) => (
          <div className="flex min-w-0 flex-col">
            <span className="truncate font-medium">{r.name}</span>
            {r.path.length ? <span className="truncate text-xs text-muted-foreground">{r.path.join(" › ")}</span> : null}
          </div>
        ),
      },
      { id: "url", header: "URL", className: "max-w-80 truncate font-mono text-xs text-muted-foreground", cell: (r) => <span title={r.url}>{r.url}</span> },
      {
        id: "code",
        header: "Code",
        cell: (r) => (r.responseCode === null ? <span className="text-xs text-muted-foreground">{r.status === "skipped" ? "skipped" : "not sent"}</span> : <span className={cn("rounded-md border px-1.5 py-0.5 font-mono text-xs font-semibold", statusClass(r.responseCode))}>{r.responseCode}</span>),
      },
      { id: "time", header: "Time", headClassName: "text-right", className: "text-right font-mono text-xs tabular-nums", cell: (r) => formatMs(r.responseTimeMs) },
      {
        id: "tests",
        header: "Tests",
        className: "whitespace-nowrap text-xs tabular-nums",
        cell: (r) => {
          const passed = r.tests.filter((t) => t.status === "passed").length;
          const failed = r.tests.filter((t) => t.status === "failed").length;
          if (!r.tests.length) return <span className="text-muted-foreground">{r.error ? <span className="text-destructive">error</span> : "—"}</span>;
          return (
            <span>
              <span className="text-success">{passed} passed</span>
              {failed ? <span className="text-destructive"> · {failed} failed</span> : null}
            </span>
          );
        },
      },
    ],
    [open, run.iterations],
  );

  return (
    <section aria-label={`Run ${run.name}`} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-base font-semibold">{run.name}</h2>
        <RunStatusBadge status={run.status} />
        <span className="text-xs text-muted-foreground">Started {formatDateTime(run.startedAt ?? run.createdAt)}</span>
        <div className="ml-auto flex flex-wrap items-center gap-2">
          {live && onCancel ? (
            <Button type="button" variant="outline" size="sm" onClick={onCancel}>
              <Square aria-hidden /> Stop run
            </Button>
          ) : null}
          {formats.map((f) =>
            exportHrefs?.[f] ? (
              <Button key={f} asChild variant="outline" size="sm">
                <a href={exportHrefs[f]} download>
                  <FileDown aria-hidden /> {FORMAT_LABEL[f]}
                </a>
              </Button>
            ) : (
              <Button key={f} type="button" variant="outline" size="sm" disabled={live} onClick={() => onExport?.(f)}>
                <FileDown aria-hidden /> {FORMAT_LABEL[f]}
              </Button>
            ),
          )}
        </div>
      </div>
      {run.statusReason ? <Alert variant={run.status === "cancelled" ? "warning" : "error"}>{run.statusReason}</Alert> : null}
      <RunSummary run={run} progress={progress} />
      <DataTable
        label="Run results"
        columns={columns}
        data={shown}
        rowKey={(r) => r.key}
        filtered={outcome !== "all" || iteration !== "all"}
        noMatch={{ title: "No result matches", body: "Show all results, or pick another iteration." }}
        empty={{ icon: ListChecks, title: live ? "Waiting for the first result" : "No requests ran", body: live ? "Results appear here as each request finishes." : "The run had no requests to send." }}
        rowClassName={(r) => (failedRow(r) ? "bg-destructive/5" : undefined)}
        expandedKey={open}
        onOpen={(r) => setOpen(open === r.key ? null : r.key)}
        renderDetails={(r) => <ResultDetails row={r} />}
        className="table-fixed"
        toolbar={
          <div className="flex flex-wrap items-center gap-3">
            <FilterChips
              label="Show results"
              value={outcome}
              onChange={setOutcome}
              options={[
                { value: "all", label: `All (${rows.length})` },
                { value: "passed", label: `Passed (${rows.filter((r) => r.status === "passed").length})` },
                { value: "failed", label: `Failed (${failedCount})` },
              ]}
            />
            {run.iterations > 1 ? (
              <Select value={iteration} onValueChange={setIteration}>
                <SelectTrigger aria-label="Iteration" className="h-8 w-40">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="all">All iterations</SelectItem>
                  {Array.from({ length: run.iterations }, (_, i) => (
                    <SelectItem key={i} value={String(i)}>
                      Iteration {i + 1}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            ) : null}
          </div>
        }
      />
    </section>
  );
}

function ResultDetails({ row }: { row: Row }) {
  return (
    <div className="flex flex-col gap-3 py-1">
      <p className="font-mono text-xs break-all text-muted-foreground">
        {row.method} {row.url} · {formatBytes(row.responseSize)} · started {formatDateTime(row.startedAt)}
      </p>
      {row.error ? <Alert variant="error">{row.error}</Alert> : null}
      <TestResults tests={row.tests} errors={row.scriptError ? [{ ...row.scriptError, script: "Script" }] : []} empty="This request has no tests." />
      {row.logs.length ? <ConsoleLogs logs={row.logs} /> : null}
    </div>
  );
}
