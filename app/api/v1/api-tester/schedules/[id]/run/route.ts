// Trigger a schedule now (JSON answer, or server-sent events with useSSE).
import { testerScheduleEndpoints as e } from "@/server/contracts/tester-tests-schedules";
import { defineRoute } from "@/server/http/define-route";
import { triggerSchedule } from "@/server/services/tester/schedules";

export const dynamic = "force-dynamic";
export const POST = defineRoute(e.run, ({ actor, namespace, params, body }) => triggerSchedule(actor, namespace, params.id, body));
