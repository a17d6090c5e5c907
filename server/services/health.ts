import { z } from "zod";
import { RunnerListener } from "@/server/contracts/health";
import { db } from "@/server/db/client";
import { isMigrated } from "@/server/db/migrate";
import { env } from "@/server/env";
import { packageVersion, releaseId } from "@/server/release";

const started = Date.now();

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

async function databaseCheck() {
  const t0 = performance.now();
  try {
    await withTimeout(db().$queryRaw`SELECT 1`, 2000);
    return { status: "up" as const, latencyMs: Math.round((performance.now() - t0) * 100) / 100 };
  } catch (err) {
    return { status: "down" as const, message: (err as Error).message };
  }
}

async function cacheCheck() {
  const url = env().REDIS_URL;
  // Without Redis the caches are in-process (mock index, rate limits in PostgreSQL): nothing can be down.
  if (!url) return { status: "up" as const, message: "in-process" };
  const { default: Redis } = await import("ioredis");
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000 });
  try {
    await withTimeout(redis.connect().then(() => redis.ping()), 1500);
    return { status: "up" as const };
  } catch (err) {
    return { status: "down" as const, message: (err as Error).message };
  } finally {
    redis.disconnect();
  }
}

/** The runner is a sibling process: each keeps serving while the other restarts, so it is reported, not required. */
async function protocolRunnerCheck() {
  try {
    const res = await fetch(`http://127.0.0.1:${env().RUNNER_HEALTH_PORT}/health`, { signal: AbortSignal.timeout(1000) });
    const body = (await res.json()) as { status?: string; listeners?: z.infer<typeof RunnerListener>[] };
    const listeners = z.array(RunnerListener).safeParse(body.listeners ?? []);
    return { status: body.status === "up" ? ("up" as const) : ("down" as const), listeners: listeners.success ? listeners.data : [] };
  } catch (err) {
    return { status: "down" as const, message: `protocol runner unreachable: ${(err as Error).message}` };
  }
}

export async function health() {
  const [database, cache, protocolRunner] = await Promise.all([databaseCheck(), cacheCheck(), protocolRunnerCheck()]);
  const status = database.status === "up" && cache.status !== "down" ? ("up" as const) : ("down" as const);
  return {
    httpStatus: status === "up" ? 200 : 503,
    body: { status, releaseId: releaseId(), version: packageVersion(), uptimeSeconds: Math.round((Date.now() - started) / 1000), checks: { database, cache, protocolRunner } },
  };
}

export async function readiness() {
  const checks: Record<string, { ok: boolean; message?: string }> = {};
  try {
    await withTimeout(db().$queryRaw`SELECT 1`, 2000);
    checks.database = { ok: true };
    const migrated = await isMigrated((sql) => db().$queryRawUnsafe(sql));
    checks.migrations = migrated ? { ok: true } : { ok: false, message: "migrations pending" };
  } catch (err) {
    checks.database ??= { ok: false, message: (err as Error).message };
    checks.migrations ??= { ok: false, message: "database unreachable" };
  }
  const ok = Object.values(checks).every((c) => c.ok);
  return { httpStatus: ok ? 200 : 503, body: { status: ok ? ("ready" as const) : ("not_ready" as const), checks } };
}
