// Where a load run goes when runner agents are registered: the seam between
// the run service and the runner queue. Until an agent has registered, every
// run is local (the web process runs small runs itself).
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { RunPlan } from "@/server/perf/k6/plan";
import type { NamespaceScope } from "../namespace-access";

/** A runner that sent a heartbeat this recently is online. */
export const RUNNER_ONLINE_WITHIN_MS = 15_000;

function onlineRunnersWhere(scope: NamespaceScope) {
  return { status: { in: ["online"] }, lastHeartbeatAt: { gte: new Date(Date.now() - RUNNER_ONLINE_WITHIN_MS) }, OR: [{ namespaceId: null }, { namespaceId: scope.id }] };
}

/** Whether any runner agent may take this namespace's load runs now. */
export async function runnersAvailable(scope: NamespaceScope): Promise<boolean> {
  return (await db().runner.count({ where: onlineRunnersWhere(scope) })) > 0;
}

export interface Dispatch {
  resultId: string;
  plan: RunPlan;
  preferredRunnerId?: string;
  createdBy: string | null;
  configId: string | null;
}

/** Queues the run's parts for runner agents; answers the runner task's id. */
export async function dispatchToRunners(scope: NamespaceScope, run: Dispatch): Promise<{ taskId: string }> {
  void run;
  throw new AppError("unavailable", `No runner agent can take load runs of namespace '${scope.name}' yet`);
}
