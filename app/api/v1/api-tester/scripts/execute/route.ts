// Run one script alone, or only check the caller may (authorizeOnly).
import { testerExecuteEndpoints as e } from "@/server/contracts/tester-execute-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { executeScript } from "@/server/services/tester/execute-client";

export const POST = defineRoute(e.scriptExecute, ({ actor, namespace, body }) => executeScript(actor, namespace, body));
