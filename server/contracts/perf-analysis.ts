// Reading load results across runs: the list, a config's history and trend,
// two to five results side by side, and the results of one run group. The
// shapes are what the UI's charts and tables need directly, so no client has
// to recompute deltas or percentiles.
import { z } from "zod";
import { Paging } from "./common";
import { PerfPartView, PerfResultRow, PerfStatus, PerfThreshold } from "./perf";

export const PerfResultListQuery = Paging.extend({
  configId: z.string().uuid().optional().describe("only this config's results"),
  status: PerfStatus.optional(),
  search: z.string().max(200).optional().describe("part of the name, any case"),
});
export type PerfResultListQuery = z.infer<typeof PerfResultListQuery>;
export const PerfResultList = z.object({ results: z.array(PerfResultRow), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });
export type PerfResultList = z.infer<typeof PerfResultList>;

export const ConfigIdParams = z.object({ configId: z.string().uuid({ message: "must be a UUID" }) });
export const RunGroupParams = z.object({ runGroupId: z.string().uuid({ message: "must be a UUID" }) });
export const PerfHistoryQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });
export type PerfHistoryQuery = z.infer<typeof PerfHistoryQuery>;

export const PerfHistory = z.object({ configId: z.string(), results: z.array(PerfResultRow).describe("newest first"), total: z.number().int() });
export type PerfHistory = z.infer<typeof PerfHistory>;

export const PerfTrendPoint = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  status: PerfStatus,
  requests: z.number().nullable(),
  rps: z.number().nullable(),
  avgMs: z.number().nullable(),
  p95Ms: z.number().nullable(),
  p99Ms: z.number().nullable(),
  failedRate: z.number().nullable(),
  checksFailed: z.number().nullable(),
  thresholdsOk: z.boolean().nullable().describe("null: no thresholds, or no numbers"),
  durationMs: z.number().nullable(),
});
export type PerfTrendPoint = z.infer<typeof PerfTrendPoint>;
export const PerfTrend = z.object({ configId: z.string(), points: z.array(PerfTrendPoint).describe("ended runs, oldest first (chart order); numbers null when the run has none") });
export type PerfTrend = z.infer<typeof PerfTrend>;

export const PERF_COMPARE_MAX = 5;
const idList = z
  .string()
  .max(PERF_COMPARE_MAX * 40)
  .describe("comma-separated result ids, the first is the baseline");
export const PerfCompareQuery = z.object({
  ids: idList.optional(),
  id: z.string().max(40).optional().describe("repeatable instead of ids: id=a&id=b"),
});
/** The ids a compare request names, from `ids=a,b` and/or repeated `id=a&id=b`, in order. */
export function compareIdsOf(url: URL): string[] {
  const fromList = url.searchParams.getAll("ids").flatMap((v) => v.split(","));
  return [...fromList, ...url.searchParams.getAll("id")].map((s) => s.trim()).filter(Boolean);
}
export const PerfCompareInput = z.object({
  ids: z
    .array(z.string().uuid({ message: "must be a UUID" }))
    .min(2, "compare at least two results")
    .max(PERF_COMPARE_MAX, `compare at most ${PERF_COMPARE_MAX} results`)
    .refine((ids) => new Set(ids).size === ids.length, "the same result twice"),
});

const Delta = z.object({ absolute: z.number(), percent: z.number().nullable().describe("null when the baseline is 0") }).nullable().describe("against the first result; null when either value is missing");
const Better = z.enum(["lower", "higher"]).nullable().describe("which direction is an improvement; null: neither");

export const PerfCompareSummaryRow = z.object({
  field: z.string().describe("a field of PerfHeadline: rps, p95Ms, …"),
  values: z.array(z.number().nullable()).describe("one per result, in the order asked"),
  deltas: z.array(Delta),
  better: Better,
});
export const PerfCompareMetricRow = z.object({
  metric: z.string().describe("k6 metric, with tag filter for submetrics"),
  stat: z.string().describe("k6 value: avg, p(95), rate, count, …"),
  values: z.array(z.number().nullable()),
  deltas: z.array(Delta),
  better: Better,
});
export const PerfComparison = z.object({
  baselineId: z.string(),
  results: z.array(PerfResultRow.extend({ thresholds: z.array(PerfThreshold) })).describe("in the order asked; the first is the baseline"),
  summary: z.array(PerfCompareSummaryRow),
  metrics: z.array(PerfCompareMetricRow).describe("every metric and value any of the results has, in k6's order"),
});
export type PerfComparison = z.infer<typeof PerfComparison>;

export const PerfGroupResult = PerfResultRow.extend({ parts: z.array(PerfPartView) });
export const PerfRunGroup = z.object({ runGroupId: z.string(), results: z.array(PerfGroupResult).describe("oldest first") });
export type PerfRunGroup = z.infer<typeof PerfRunGroup>;

export const PerfStopped = z.object({ id: z.string(), status: PerfStatus });
