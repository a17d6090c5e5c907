// Runner tasks of the namespace: list, and submit a saved performance config to the runner agents.
import { runnerTaskEndpoints as e } from "@/server/contracts/runner-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { listRunnerTasks, submitRunnerTask } from "@/server/services/runners/tasks";

export const GET = defineRoute(e.list, ({ namespace, query }) => listRunnerTasks(namespace, query));
export const POST = defineRoute(e.submit, ({ actor, namespace, body }) => submitRunnerTask(actor, namespace, body));
