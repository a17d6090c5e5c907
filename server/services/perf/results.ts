// Load results as the API and the UI read them: the list, one result's k6
// detail, deletion, a config's history and trend, a comparison, and a run
// group. An ended result is read from what its finalisation stored; a queued
// or running one is built live from its parts' latest reports
// (mergedPartsOf), so watching a run and reading it afterwards show the same
// shapes.
import type { z } from "zod";
import type { PerfCheck, PerfGroup, PerfHeadline, PerfResultDetail, PerfResultRow, PerfStatus } from "@/server/contracts/perf";
import type { PerfComparison, PerfHistory, PerfHistoryQuery, PerfResultList, PerfResultListQuery, PerfRunGroup, PerfTrend } from "@/server/contracts/perf-analysis";
import { PerfCompareInput } from "@/server/contracts/perf-analysis";
import { db, type Prisma } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { MergedRun } from "@/server/perf/merge";
import { compareHeadlines, compareMetrics, headlineOf, type MetricsSnapshot } from "@/server/perf/result-numbers";
import type { SummaryData } from "@/server/perf/summary";
import { validationError } from "@/server/validation-error";
import type { NamespaceScope } from "../namespace-access";
import { mergedPartsOf } from "./run-parts";

const ACTIVE: PerfStatus[] = ["queued", "running"];
const isActive = (s: string) => (ACTIVE as string[]).includes(s);

const rowSelect = {
  id: true,
  name: true,
  status: true,
  reason: true,
  configId: true,
  runGroupId: true,
  taskId: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  summary: true,
  metrics: true,
  thresholds: true,
} satisfies Prisma.PerfResultSelect;
type RowData = Prisma.PerfResultGetPayload<{ select: typeof rowSelect }>;

type Threshold = { key: string; source: string; ok: boolean; actual: number | null };

const finiteOrNull = (n: number | null | undefined) => (typeof n === "number" && Number.isFinite(n) ? n : null);
const cleanThresholds = (list: Threshold[]): Threshold[] => list.map((t) => ({ key: t.key, source: t.source, ok: t.ok, actual: finiteOrNull(t.actual) }));

export function resultNotFound(scope: NamespaceScope, id: string) {
  return new AppError("not_found", `Performance result '${id}' not found in namespace '${scope.name}'`);
}

/** What a result has measured: stored once it ended, merged from its parts while it runs. */
interface Numbers {
  headline: PerfHeadline | null;
  summary: SummaryData | null;
  thresholds: Threshold[];
  live: MergedRun | null;
}

async function numbersOf(r: Pick<RowData, "id" | "status" | "summary" | "metrics" | "thresholds">): Promise<Numbers> {
  if (isActive(r.status)) {
    const live = await mergedPartsOf(r.id);
    // No part has sent a snapshot yet: nothing measured to show.
    if (live.durationMs === 0) return { headline: null, summary: null, thresholds: [], live };
    const thresholds = cleanThresholds(live.thresholds);
    return { headline: headlineOf(live.summary, live.metrics, thresholds), summary: live.summary, thresholds, live };
  }
  const summary = r.summary as SummaryData | null;
  const thresholds = cleanThresholds((r.thresholds as Threshold[] | null) ?? []);
  return { headline: headlineOf(summary, r.metrics as MetricsSnapshot | null, thresholds), summary, thresholds, live: null };
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function rowView(r: RowData, headline: PerfHeadline | null): PerfResultRow {
  return {
    id: r.id,
    name: r.name,
    status: r.status as PerfStatus,
    reason: r.reason,
    configId: r.configId,
    runGroupId: r.runGroupId,
    taskId: r.taskId,
    createdAt: r.createdAt.toISOString(),
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    summary: headline,
  };
}

async function rowsOf(rows: RowData[]): Promise<PerfResultRow[]> {
  return Promise.all(rows.map(async (r) => rowView(r, (await numbersOf(r)).headline)));
}

export async function listPerfResults(scope: NamespaceScope, query: z.output<typeof PerfResultListQuery>): Promise<PerfResultList> {
  const where: Prisma.PerfResultWhereInput = {
    namespaceId: scope.id,
    ...(query.configId ? { configId: query.configId } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.search ? { name: { contains: query.search, mode: "insensitive" } } : {}),
  };
  const [rows, total] = await db().$transaction([
    db().perfResult.findMany({ where, select: rowSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: query.offset, take: query.limit }),
    db().perfResult.count({ where }),
  ]);
  return { results: await rowsOf(rows), total, limit: query.limit, offset: query.offset };
}

function flattenChecks(g: PerfGroup | null | undefined, out: z.infer<typeof PerfCheck>[] = []) {
  if (!g) return out;
  for (const c of g.checks) out.push({ name: c.name, path: c.path, passes: c.passes, fails: c.fails });
  for (const child of g.groups) flattenChecks(child, out);
  return out;
}

type PartRow = { index: number; count: number; status: string; reason: string | null; runnerId: string | null; startedAt: Date | null; finishedAt: Date | null; snapshot: unknown };
const partSelect = { index: true, count: true, status: true, reason: true, runnerId: true, startedAt: true, finishedAt: true, snapshot: true } as const;

function partView(p: PartRow) {
  const reqs = (p.snapshot as { metrics?: MetricsSnapshot } | null)?.metrics?.http_reqs?.all;
  return {
    index: p.index,
    count: p.count,
    status: p.status,
    reason: p.reason,
    runnerId: p.runnerId,
    startedAt: iso(p.startedAt),
    finishedAt: iso(p.finishedAt),
    requests: reqs?.type === "counter" ? reqs.count : 0,
  };
}

export async function getPerfResult(scope: NamespaceScope, id: string): Promise<PerfResultDetail> {
  const r = await db().perfResult.findFirst({ where: { id, namespaceId: scope.id }, include: { parts: { select: partSelect, orderBy: { index: "asc" } } } });
  if (!r) throw resultNotFound(scope, id);
  const n = await numbersOf(r);
  const live = n.live;
  const rootGroup = (n.summary?.root_group as PerfGroup | undefined) ?? null;
  return {
    ...rowView(r, n.headline),
    script: r.script,
    options: (r.options as Record<string, unknown>) ?? {},
    envNames: r.envNames,
    metrics: (n.summary?.metrics as PerfResultDetail["metrics"]) ?? {},
    rootGroup,
    checks: flattenChecks(rootGroup),
    thresholds: n.thresholds,
    series: live ? live.series : ((r.series as PerfResultDetail["series"]) ?? []),
    errors: live ? live.errors : ((r.errors as PerfResultDetail["errors"]) ?? []),
    logs: live ? live.logs : ((r.logs as string[]) ?? []),
    summaryText: live ? (n.summary ? live.summaryText : null) : r.summaryText,
    handleSummary: live ? null : ((r.handleSummary as Record<string, string> | null) ?? null),
    parts: r.parts.map(partView),
  };
}

/** Deletes an ended result with its load test run (the result cascades from it); 409 while it runs. */
export async function deletePerfResult(scope: NamespaceScope, id: string): Promise<{ ok: true }> {
  const r = await db().perfResult.findFirst({ where: { id, namespaceId: scope.id }, select: { status: true } });
  if (!r) throw resultNotFound(scope, id);
  // Conditional: a run that started meanwhile is not deleted from under its runner.
  const { count } = await db().testRun.deleteMany({ where: { id, namespaceId: scope.id, perfResult: { is: { status: { notIn: ACTIVE } } } } });
  if (count === 0) {
    throw new AppError("conflict", `Performance result '${id}' is ${r.status}; stop it (POST /api/v1/perf/stop/${id}) before deleting it`, { details: [{ location: "path", field: "id", message: `the run is ${r.status}` }] });
  }
  return { ok: true };
}

/** Results of a config exist in the namespace, or the config does: otherwise its history is 404. */
async function assertConfigKnown(scope: NamespaceScope, configId: string) {
  const [config, anyResult] = await Promise.all([
    db().perfConfig.findFirst({ where: { id: configId, namespaceId: scope.id }, select: { id: true } }),
    db().perfResult.findFirst({ where: { configId, namespaceId: scope.id }, select: { id: true } }),
  ]);
  if (!config && !anyResult) throw new AppError("not_found", `Performance config '${configId}' not found in namespace '${scope.name}'`);
}

export async function perfHistory(scope: NamespaceScope, configId: string, query: PerfHistoryQuery): Promise<PerfHistory> {
  await assertConfigKnown(scope, configId);
  const where = { namespaceId: scope.id, configId };
  const [rows, total] = await db().$transaction([
    db().perfResult.findMany({ where, select: rowSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: query.limit }),
    db().perfResult.count({ where }),
  ]);
  return { configId, results: await rowsOf(rows), total };
}

export async function perfTrend(scope: NamespaceScope, configId: string, query: PerfHistoryQuery): Promise<PerfTrend> {
  await assertConfigKnown(scope, configId);
  const rows = await db().perfResult.findMany({
    where: { namespaceId: scope.id, configId, status: { notIn: ACTIVE } },
    select: rowSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
  });
  const points = [];
  for (const r of rows.reverse()) {
    const h = (await numbersOf(r)).headline;
    points.push({
      id: r.id,
      name: r.name,
      createdAt: r.createdAt.toISOString(),
      status: r.status as PerfStatus,
      requests: h?.requests ?? null,
      rps: h?.rps ?? null,
      avgMs: h?.avgMs ?? null,
      p95Ms: h?.p95Ms ?? null,
      p99Ms: h?.p99Ms ?? null,
      failedRate: h?.failedRate ?? null,
      checksFailed: h?.checksFailed ?? null,
      thresholdsOk: h?.thresholdsOk ?? null,
      durationMs: h?.durationMs ?? null,
    });
  }
  return { configId, points };
}

/** 2 to 5 results side by side, deltas against the first; every id must be in the namespace. */
export async function comparePerfResults(scope: NamespaceScope, ids: string[]): Promise<PerfComparison> {
  const parsed = PerfCompareInput.safeParse({ ids });
  if (!parsed.success) throw validationError(parsed.error, "query");
  const rows = await db().perfResult.findMany({ where: { id: { in: ids }, namespaceId: scope.id }, select: rowSelect });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing) throw resultNotFound(scope, missing);
  const ordered = ids.map((id) => byId.get(id)!);
  const numbers = await Promise.all(ordered.map(numbersOf));
  const comparable = numbers.map((n) => ({ headline: n.headline, metrics: (n.summary?.metrics ?? {}) as SummaryData["metrics"] }));
  return {
    baselineId: ids[0],
    results: ordered.map((r, i) => ({ ...rowView(r, numbers[i].headline), thresholds: numbers[i].thresholds })),
    summary: compareHeadlines(comparable),
    metrics: compareMetrics(comparable),
  };
}

export async function perfRunGroup(scope: NamespaceScope, runGroupId: string): Promise<PerfRunGroup> {
  const rows = await db().perfResult.findMany({
    where: { runGroupId, namespaceId: scope.id },
    select: { ...rowSelect, parts: { select: partSelect, orderBy: { index: "asc" } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  if (!rows.length) throw new AppError("not_found", `Run group '${runGroupId}' not found in namespace '${scope.name}'`);
  const results = await Promise.all(rows.map(async ({ parts, ...r }) => ({ ...rowView(r, (await numbersOf(r)).headline), parts: parts.map(partView) })));
  return { runGroupId, results };
}
