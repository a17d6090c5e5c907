// useLimiter must be exact across processes and connections: one atomic
// conditional increment decides whether this request may use the mock.
import { db } from "@/server/db/client";

export async function takeUse(namespaceId: string, mockId: string, limit: number): Promise<boolean> {
  const taken = await db().$executeRaw`
    UPDATE "Mock" SET "useCounter" = "useCounter" + 1
    WHERE "namespaceId" = ${namespaceId}::uuid AND "id" = ${mockId} AND "deletedAt" IS NULL AND "useCounter" < ${limit}`;
  return taken === 1;
}
