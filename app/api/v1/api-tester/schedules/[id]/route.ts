// One schedule (its owner only): read, change, delete.
import { testerScheduleEndpoints as e } from "@/server/contracts/tester-tests-schedules";
import { defineRoute } from "@/server/http/define-route";
import { deleteSchedule, getSchedule, updateSchedule } from "@/server/services/tester/schedules";

export const GET = defineRoute(e.get, ({ actor, namespace, params }) => getSchedule(actor, namespace, params.id));
export const PUT = defineRoute(e.update, ({ actor, namespace, params, body }) => updateSchedule(actor, namespace, params.id, body));
export const DELETE = defineRoute(e.remove, ({ actor, namespace, params }) => deleteSchedule(actor, namespace, params.id));
