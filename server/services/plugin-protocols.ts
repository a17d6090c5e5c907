// GET /api/v1/plugin-protocols: the plugin wire codecs the runner's unified
// listener speaks (server/contracts/plugin-protocols.ts), with the listener's
// live state from the runner's health and the namespace's mocks for each.
import { PLUGIN_CODECS, type PluginProtocolList } from "@/server/contracts/plugin-protocols";
import { db } from "@/server/db/client";
import { env } from "@/server/env";
import type { NamespaceScope } from "./namespace-access";

type ListenerState = { status: "listening" | "error" | "stopped" | "unknown"; error?: string };

async function runnerPluginState(): Promise<ListenerState> {
  try {
    const res = await fetch(`http://127.0.0.1:${env().RUNNER_HEALTH_PORT}/health`, { signal: AbortSignal.timeout(1000) });
    const body = (await res.json()) as { plugins?: { status?: string; error?: string } };
    const status = body.plugins?.status;
    return status === "listening" || status === "error" || status === "stopped" ? { status, error: body.plugins?.error } : { status: "unknown" };
  } catch {
    return { status: "unknown" };
  }
}

export async function listPluginProtocols(scope: NamespaceScope): Promise<PluginProtocolList> {
  if (env().SERVICE_UNIFIED_PORT !== "1") return { enabled: false, protocols: [] };
  const [listener, counts] = await Promise.all([
    runnerPluginState(),
    db().mock.groupBy({
      by: ["route"],
      where: { namespaceId: scope.id, deletedAt: null, protocol: "socket", route: { in: PLUGIN_CODECS.map((c) => c.serverName) } },
      _count: { _all: true },
    }),
  ]);
  const mocks = new Map(counts.map((c) => [c.route, c._count._all]));
  return {
    enabled: true,
    protocols: PLUGIN_CODECS.map((c) => ({
      codec: c.codec,
      name: c.name,
      serverName: c.serverName,
      transport: "tcp" as const,
      port: env().PLUGIN_PORT,
      state: listener.status,
      reason: listener.error ?? null,
      detectedBy: c.detectedBy,
      event: c.event,
      body: c.body,
      reply: c.reply,
      namespace: c.namespace,
      mocks: mocks.get(c.serverName) ?? 0,
    })),
  };
}
