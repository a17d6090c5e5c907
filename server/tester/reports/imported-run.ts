// The run a report import produces: a TestRunDetail without the fields the
// service assigns when it stores it (id, namespace, creator, creation time),
// marked source "import". Counts and status are always computed here from
// the results, whatever totals the imported file claims.
import { z } from "zod";
import { TestRunDetail, type RunRequestResult } from "@/server/contracts/tester-run";
import { countResults, runStatusFrom, type RunEnd } from "../run-counts";

export const ImportedRun = TestRunDetail.omit({ id: true, namespace: true, createdBy: true, createdAt: true }).extend({ source: z.literal("import") });
export type ImportedRun = z.infer<typeof ImportedRun>;

export interface ImportedRunMeta {
  name: string;
  startedAt: string | null;
  durationMs: number | null;
  finishedAt?: string | null;
  mode?: TestRunDetail["mode"];
  iterations?: number;
  end?: RunEnd;
  statusReason?: string | null;
  referenceId?: string | null;
  collectionIds?: string[];
  environmentId?: string | null;
}

export function assembleImportedRun(meta: ImportedRunMeta, results: RunRequestResult[]): ImportedRun {
  const counts = countResults(results);
  const iterations = results.reduce((n, r) => Math.max(n, r.iteration + 1), Math.max(1, meta.iterations ?? 0));
  const finishedAt = meta.finishedAt ?? (meta.startedAt && meta.durationMs !== null ? new Date(Date.parse(meta.startedAt) + meta.durationMs).toISOString() : null);
  return {
    name: meta.name,
    mode: meta.mode ?? "functional",
    status: runStatusFrom(counts, meta.end),
    referenceId: meta.referenceId ?? null,
    collectionIds: meta.collectionIds ?? [],
    environmentId: meta.environmentId ?? null,
    iterations,
    counts,
    statusReason: meta.statusReason ?? null,
    startedAt: meta.startedAt,
    finishedAt,
    durationMs: meta.durationMs,
    source: "import",
    results,
  };
}
