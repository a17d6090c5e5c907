// Run a test definition without saving it.
import { testerTestEndpoints as e } from "@/server/contracts/tester-tests-schedules";
import { defineRoute } from "@/server/http/define-route";
import { runInlineTest } from "@/server/services/tester/standalone-tests";

export const dynamic = "force-dynamic";
export const POST = defineRoute(e.runInline, ({ actor, namespace, body }) => runInlineTest(actor, namespace, body));
