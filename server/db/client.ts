// One Prisma client per process. server.ts (run by tsx) and the Next.js bundle
// each load this module, so the instance is kept on globalThis to share one
// connection pool between them.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/client.ts";

export type Db = PrismaClient;
export { Prisma } from "./generated/client.ts";
export type * from "./generated/client.ts";

const globalForDb = globalThis as unknown as { __polymockDb?: { url: string; client: PrismaClient }; __polymockRawPool?: { url: string; pool: pg.Pool } };

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
  return url;
}

export function createDb(url: string, max = Number(process.env.DB_POOL_MAX ?? 10)): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
}

export function db(): PrismaClient {
  const url = databaseUrl();
  const cached = globalForDb.__polymockDb;
  if (cached && cached.url === url) return cached.client;
  const client = createDb(url);
  globalForDb.__polymockDb = { url, client };
  return client;
}

/**
 * Plain `pg` for the few statements on the serving hot path (request-log
 * batches, use counters): Prisma runs every statement, raw ones included,
 * through its query compiler on the event loop, which cost more CPU than the
 * statements themselves at stub rates (8.5 % of the runner's CPU under the
 * G1 benchmark). Two connections; idle ones never hold the process open.
 */
export function rawPool(): pg.Pool {
  const url = databaseUrl();
  const cached = globalForDb.__polymockRawPool;
  if (cached && cached.url === url) return cached.pool;
  void cached?.pool.end().catch(() => {});
  const pool = new pg.Pool({ connectionString: url, max: 2, allowExitOnIdle: true });
  // An idle connection's error (the server restarted): the pool drops it and the next query connects anew.
  pool.on("error", () => {});
  globalForDb.__polymockRawPool = { url, pool };
  return pool;
}

/** Runs `work` in one transaction on a raw connection. */
export async function rawTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await rawPool().connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

export async function disconnectDb() {
  const cached = globalForDb.__polymockDb;
  const raw = globalForDb.__polymockRawPool;
  globalForDb.__polymockDb = undefined;
  globalForDb.__polymockRawPool = undefined;
  await Promise.all([cached?.client.$disconnect(), raw?.pool.end().catch(() => {})]);
}
