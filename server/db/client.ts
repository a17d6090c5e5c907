// One Prisma client per process. server.ts (run by tsx) and the Next.js bundle
// each load this module, so the instance is kept on globalThis to share one
// connection pool between them.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.ts";

export type Db = PrismaClient;
export { Prisma } from "./generated/client.ts";
export type * from "./generated/client.ts";

const globalForDb = globalThis as unknown as { __polymockDb?: { url: string; client: PrismaClient } };

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

export async function disconnectDb() {
  const cached = globalForDb.__polymockDb;
  globalForDb.__polymockDb = undefined;
  await cached?.client.$disconnect();
}
