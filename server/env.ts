// Process configuration read once from the environment. Every variable is
// documented in README.md ("Configuration").
import { z } from "zod";

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes");

const EnvSchema = z.object({
  DATABASE_URL: z.string().optional(),
  PORT: z.coerce.number().int().positive().default(5770),
  HOST: z.string().default("0.0.0.0"),
  PUBLIC_URL: z.string().optional(),
  APP_SECRET: z.string().optional(),
  RELEASE_ID: z.string().optional(),
  REDIS_URL: z.string().optional(),
  /** The protocol runner's loopback health port, read by /health (checks.protocolRunner). */
  RUNNER_HEALTH_PORT: z.coerce.number().int().positive().default(5774),
  /** "1": the runner opens the plugin wire listener on PLUGIN_PORT (GET /api/v1/plugin-protocols lists its codecs). */
  SERVICE_UNIFIED_PORT: z.string().optional(),
  PLUGIN_PORT: z.coerce.number().int().positive().default(5775),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(24 * 7),
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
  RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().positive().default(20),
  RATE_LIMIT_API_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  RATE_LIMIT_DISABLED: bool,
  LOG_LEVEL: z.string().default("info"),
  TRUST_PROXY: bool,
});

export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;
export function env(): Env {
  cached ??= EnvSchema.parse(process.env);
  return cached;
}

/** For tests that change the environment between cases. */
export function resetEnvCache() {
  cached = undefined;
}

export function publicUrl(): string {
  return (env().PUBLIC_URL ?? `http://localhost:${env().PORT}`).replace(/\/$/, "");
}
