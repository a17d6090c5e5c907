// The use counter of a mock (Mock.useCounter). useLimiter must be exact across
// processes and connections: one atomic conditional increment decides whether
// this request may use the mock. Unlimited mocks are counted in batches by the
// recorder (./recorder.ts), off the response path.
import { rawPool } from "@/server/db/client";
import type { MockHits } from "./hit-recorder";

// Both run per request or per batch of hits: plain pg, not Prisma (server/db/client.ts, rawPool).
export async function takeUse(namespaceId: string, mockId: string, limit: number): Promise<boolean> {
  const taken = await rawPool().query(`UPDATE "Mock" SET "useCounter" = "useCounter" + 1 WHERE "namespaceId" = $1::uuid AND "id" = $2 AND "deletedAt" IS NULL AND "useCounter" < $3`, [namespaceId, mockId, limit]);
  return taken.rowCount === 1;
}

/** One UPDATE per mock with its number of uses in the batch (capped at the column's maximum). */
export async function addUses(batch: MockHits[]): Promise<void> {
  for (const m of batch) {
    if (m.uses === 0) continue;
    await rawPool().query(`UPDATE "Mock" SET "useCounter" = LEAST("useCounter"::bigint + $1, 2147483647)::int WHERE "namespaceId" = $2::uuid AND "id" = $3`, [m.uses, m.namespaceId, m.mockId]);
  }
}
