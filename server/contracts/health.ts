import { z } from "zod";
import { endpoint } from "./endpoint";

export const CheckStatus = z.enum(["up", "down", "disabled"]);
/** One listener of the protocol runner as its health reports it. */
export const RunnerListener = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string().optional(),
  protocol: z.string(),
  port: z.number().int().nullable().optional(),
  state: z.enum(["listening", "error", "stopped"]),
  reason: z.string().nullable().optional(),
});
export const HealthOutput = z.object({
  status: z.enum(["up", "down"]),
  releaseId: z.string(),
  version: z.string(),
  uptimeSeconds: z.number(),
  checks: z.object({
    database: z.object({ status: CheckStatus, latencyMs: z.number().optional(), message: z.string().optional() }),
    cache: z.object({ status: CheckStatus, message: z.string().optional() }),
    protocolRunner: z
      .object({ status: CheckStatus, message: z.string().optional(), listeners: z.array(RunnerListener).optional() })
      .describe("the protocol runner and its listeners; its being down does not make the web process down"),
  }),
});
export const ReadyOutput = z.object({ status: z.enum(["ready", "not_ready"]), checks: z.record(z.string(), z.object({ ok: z.boolean(), message: z.string().optional() })) });
export const LiveOutput = z.object({ status: z.literal("alive") });

const tag = "Health";
export const healthEndpoints = {
  health: endpoint({ method: "GET", path: "/health", tag, summary: "Full health; 503 when the database is down", auth: "none", response: HealthOutput, statuses: { 503: { description: "the database is down", body: "response" } } }),
  live: endpoint({ method: "GET", path: "/health/live", tag, summary: "Liveness: the process answers", auth: "none", response: LiveOutput }),
  ready: endpoint({ method: "GET", path: "/health/ready", tag, summary: "Readiness: database reachable and every migration applied; 503 otherwise", auth: "none", response: ReadyOutput, statuses: { 503: { description: "not ready", body: "response" } } }),
  metrics: endpoint({ method: "GET", path: "/metrics", tag, summary: "Prometheus metrics", auth: "none", produces: "text/plain" }),
  openapi: endpoint({ method: "GET", path: "/swagger/doc.json", tag, summary: "This OpenAPI document", auth: "none", produces: "application/json" }),
} as const;
