// The caller's cron schedules in the namespace: list and create.
import { testerScheduleEndpoints as e } from "@/server/contracts/tester-tests-schedules";
import { defineRoute } from "@/server/http/define-route";
import { createSchedule, listSchedules } from "@/server/services/tester/schedules";

export const GET = defineRoute(e.list, ({ actor, namespace }) => listSchedules(actor, namespace));
export const POST = defineRoute(e.create, ({ actor, namespace, body }) => createSchedule(actor, namespace, body));
