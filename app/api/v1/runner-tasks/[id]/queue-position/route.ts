// How many queued tasks are ahead of a runner task.
import { runnerTaskEndpoints as e } from "@/server/contracts/runner-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { queuePosition } from "@/server/services/runners/tasks";

export const GET = defineRoute(e.queuePosition, ({ namespace, params }) => queuePosition(namespace, params.id));
