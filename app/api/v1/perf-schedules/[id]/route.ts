// One load-test schedule: read, change, delete.
import { perfScheduleEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { deletePerfSchedule, getPerfSchedule, updatePerfSchedule } from "@/server/services/perf/schedules";

export const GET = defineRoute(e.get, ({ namespace, params }) => getPerfSchedule(namespace, params.id));
export const PUT = defineRoute(e.update, ({ actor, namespace, params, body }) => updatePerfSchedule(actor, namespace, params.id, body));
export const DELETE = defineRoute(e.remove, ({ namespace, params }) => deletePerfSchedule(namespace, params.id));
