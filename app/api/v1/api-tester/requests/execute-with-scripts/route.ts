// Send a request with its pre-request and test scripts.
import { testerExecuteEndpoints as e } from "@/server/contracts/tester-execute-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { executeWithScripts } from "@/server/services/tester/execute";

export const POST = defineRoute(e.executeWithScripts, ({ actor, namespace, body, req }) => executeWithScripts(actor, namespace, body, req.signal));
