import { afterAll, beforeAll } from "vitest";
import { disconnectDb } from "@/server/db/client";
import { createTestDatabase } from "./test-db";

/** Points the process's Prisma client at a fresh database for this test file. */
export function useTestDatabase() {
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    process.env.DATABASE_URL = created.url;
  });
  afterAll(async () => {
    await disconnectDb();
    await drop?.();
  });
}
