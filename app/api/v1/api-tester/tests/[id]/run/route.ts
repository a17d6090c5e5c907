// Run a saved standalone test (JSON answer, or server-sent events with useSSE).
import { testerTestEndpoints as e } from "@/server/contracts/tester-tests-schedules";
import { defineRoute } from "@/server/http/define-route";
import { runTest } from "@/server/services/tester/standalone-tests";

export const dynamic = "force-dynamic";
export const POST = defineRoute(e.run, ({ actor, namespace, params, body }) => runTest(actor, namespace, params.id, body));
