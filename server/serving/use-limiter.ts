// The use counter of a mock (Mock.useCounter). useLimiter must be exact across
// processes and connections: one atomic conditional increment decides whether
// this request may use the mock. Unlimited mocks are counted in batches by the
// recorder (./recorder.ts), off the response path.
import { db } from "@/server/db/client";
import type { MockHits } from "./hit-recorder";

export async function takeUse(namespaceId: string, mockId: string, limit: number): Promise<boolean> {
  const taken = await db().$executeRaw`
    UPDATE "Mock" SET "useCounter" = "useCounter" + 1
    WHERE "namespaceId" = ${namespaceId}::uuid AND "id" = ${mockId} AND "deletedAt" IS NULL AND "useCounter" < ${limit}`;
  return taken === 1;
}

/** One UPDATE per mock with its number of uses in the batch (capped at the column's maximum). */
export async function addUses(batch: MockHits[]): Promise<void> {
  for (const m of batch) {
    if (m.uses === 0) continue;
    await db().$executeRaw`UPDATE "Mock" SET "useCounter" = LEAST("useCounter"::bigint + ${m.uses}, 2147483647)::int WHERE "namespaceId" = ${m.namespaceId}::uuid AND "id" = ${m.mockId}`;
  }
}
