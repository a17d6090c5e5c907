"use client";
// The lower part of a result: k6's text summary, the script's console
// output, errors by message, the parts (one per runner when the run was
// split) and the script as it ran.
import { CodeEditor } from "@/components/code/code-editor";
import { formatDateTime } from "@/components/lib/format";
import { formatCount } from "@/components/perf/format";
import { SummaryText } from "@/components/perf/summary-text";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { PerfResultDetail } from "@/server/contracts/perf";

export function ResultTabs({ result: r }: { result: PerfResultDetail }) {
  return (
    <Tabs defaultValue="summary">
      <TabsList className="w-auto max-w-2xl">
        <TabsTrigger value="summary">k6 summary</TabsTrigger>
        <TabsTrigger value="logs">Logs ({r.logs.length})</TabsTrigger>
        <TabsTrigger value="errors">Errors ({r.errors.length})</TabsTrigger>
        <TabsTrigger value="parts">Parts ({r.parts.length})</TabsTrigger>
        <TabsTrigger value="script">Script</TabsTrigger>
      </TabsList>
      <TabsContent value="summary">
        <SummaryText text={r.summaryText} filename={`${r.name}-summary.txt`} />
      </TabsContent>
      <TabsContent value="logs">
        {r.logs.length ? (
          <pre className="max-h-96 overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs" aria-label="Logs" tabIndex={0}>
            {r.logs.join("\n")}
          </pre>
        ) : (
          <p className="text-sm text-muted-foreground">The script logged nothing. console.log() in the script shows here.</p>
        )}
      </TabsContent>
      <TabsContent value="errors">
        {r.errors.length ? (
          <Table aria-label="Errors">
            <TableHeader>
              <TableRow>
                <TableHead>Message</TableHead>
                <TableHead className="text-right">Times</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {r.errors.map((e) => (
                <TableRow key={e.message}>
                  <TableCell className="font-mono text-xs break-all whitespace-pre-wrap">{e.message}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatCount(e.count)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <p className="text-sm text-muted-foreground">No errors: no request failed to connect and no iteration threw.</p>
        )}
      </TabsContent>
      <TabsContent value="parts">
        <p className="mb-2 text-sm text-muted-foreground">A run too big for one runner is split into parts, one per runner agent, each running its share of the VUs; the numbers above are merged from them.</p>
        <Table aria-label="Parts">
          <TableHeader>
            <TableRow>
              <TableHead>Part</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Runner</TableHead>
              <TableHead className="text-right">Requests</TableHead>
              <TableHead>Started</TableHead>
              <TableHead>Finished</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {r.parts.map((p) => (
              <TableRow key={p.index}>
                <TableCell className="tabular-nums">
                  {p.index + 1} of {p.count}
                </TableCell>
                <TableCell>
                  <Badge variant={p.status === "passed" ? "success" : p.status === "running" || p.status === "queued" ? "secondary" : "destructive"}>{p.status}</Badge>
                  {p.reason ? <span className="ml-2 text-xs text-muted-foreground">{p.reason}</span> : null}
                </TableCell>
                <TableCell className="font-mono text-xs">{p.runnerId ? p.runnerId.slice(0, 8) : "this server"}</TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(p.requests)}</TableCell>
                <TableCell className="text-xs">{formatDateTime(p.startedAt)}</TableCell>
                <TableCell className="text-xs">{formatDateTime(p.finishedAt)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TabsContent>
      <TabsContent value="script">
        {r.envNames.length ? <p className="mb-2 text-xs text-muted-foreground">__ENV given: {r.envNames.join(", ")} (values are not kept)</p> : null}
        <CodeEditor label="Script as it ran" language="javascript" value={r.script} readOnly height={360} path={`perf/result-${r.id}.js`} />
      </TabsContent>
    </Tabs>
  );
}
