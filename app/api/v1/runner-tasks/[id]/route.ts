// One runner task: its status and parts; DELETE cancels it.
import { runnerTaskEndpoints as e } from "@/server/contracts/runner-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { cancelRunnerTask, getRunnerTask } from "@/server/services/runners/tasks";

export const GET = defineRoute(e.get, ({ namespace, params }) => getRunnerTask(namespace, params.id));
export const DELETE = defineRoute(e.cancel, ({ namespace, params }) => cancelRunnerTask(namespace, params.id));
