// Run a collection (JSON answer, or server-sent events with useSSE).
import { testerExecuteEndpoints as e } from "@/server/contracts/tester-execute-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { executeCollection } from "@/server/services/tester/run-collections";

export const dynamic = "force-dynamic";
export const POST = defineRoute(e.executeCollection, ({ actor, namespace, params, body }) => executeCollection(actor, namespace, params.id, body));
