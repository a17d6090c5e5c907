// Fixed-window rate limits shared by every replica: in Redis when REDIS_URL is
// set, otherwise in PostgreSQL (one upsert per request).
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { errors } from "@/server/errors";

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

type Counter = (key: string, windowStart: number, windowSeconds: number) => Promise<number>;

const g = globalThis as unknown as { __polymockRedisCounter?: Counter };

async function redisCounter(url: string): Promise<Counter> {
  if (!g.__polymockRedisCounter) {
    const { default: Redis } = await import("ioredis");
    const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: true });
    g.__polymockRedisCounter = async (key, windowStart, windowSeconds) => {
      const k = `polymock:rl:${key}:${windowStart}`;
      const [[, count]] = (await redis.multi().incr(k).expire(k, windowSeconds + 5).exec()) as [[unknown, number]];
      return count;
    };
  }
  return g.__polymockRedisCounter;
}

const dbCounter: Counter = async (key, windowStart) => {
  const rows = await db().$queryRaw<{ count: number }[]>`
    INSERT INTO "RateLimitBucket" ("key", "windowStart", "count") VALUES (${key}, ${new Date(windowStart * 1000)}, 1)
    ON CONFLICT ("key", "windowStart") DO UPDATE SET "count" = "RateLimitBucket"."count" + 1
    RETURNING "count"`;
  if (Math.random() < 0.01) {
    void db()
      .$executeRaw`DELETE FROM "RateLimitBucket" WHERE "windowStart" < now() - interval '1 hour'`
      .catch(() => {});
  }
  return Number(rows[0]?.count ?? 1);
};

export async function hitRateLimit(key: string, limit: number, windowSeconds = 60): Promise<RateLimitResult> {
  const now = Math.floor(Date.now() / 1000);
  const windowStart = now - (now % windowSeconds);
  const counter = env().REDIS_URL ? await redisCounter(env().REDIS_URL!) : dbCounter;
  const count = await counter(key, windowStart, windowSeconds);
  return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, windowStart + windowSeconds - now) };
}

/** Throws 429 with Retry-After when the key is over its limit. */
export async function enforceRateLimit(key: string, limit: number, windowSeconds = 60) {
  if (env().RATE_LIMIT_DISABLED) return;
  const result = await hitRateLimit(key, limit, windowSeconds);
  if (!result.allowed) throw errors.rateLimited(result.retryAfterSeconds);
}
