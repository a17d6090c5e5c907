// Cron schedules of saved load tests: list and create.
import { perfScheduleEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { createPerfSchedule, listPerfSchedules } from "@/server/services/perf/schedules";

export const GET = defineRoute(e.list, ({ namespace, query }) => listPerfSchedules(namespace, query));
export const POST = defineRoute(e.create, ({ actor, namespace, body }) => createPerfSchedule(actor, namespace, body));
