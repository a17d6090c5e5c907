import { z } from "zod";

const RunnerEnv = z.object({
  DATABASE_URL: z.string().min(1, "DATABASE_URL is required"),
  RUNNER_HEALTH_PORT: z.coerce.number().int().positive().default(5774),
  GRPC_PORT: z.coerce.number().int().positive().default(5773),
  HOST: z.string().default("0.0.0.0"),
  /** "1" opens the plugin wire listener (server/contracts/plugin-protocols.ts) on PLUGIN_PORT. */
  SERVICE_UNIFIED_PORT: z.string().optional(),
  PLUGIN_PORT: z.coerce.number().int().positive().default(5775),
});

export type RunnerEnv = z.infer<typeof RunnerEnv>;
export const runnerEnv = (): RunnerEnv => RunnerEnv.parse(process.env);
