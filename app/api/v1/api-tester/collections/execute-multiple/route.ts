// Run several collections as one test run.
import { testerExecuteEndpoints as e } from "@/server/contracts/tester-execute-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { executeMultiple } from "@/server/services/tester/run-collections";

export const dynamic = "force-dynamic";
export const POST = defineRoute(e.executeMultiple, ({ actor, namespace, body }) => executeMultiple(actor, namespace, body));
