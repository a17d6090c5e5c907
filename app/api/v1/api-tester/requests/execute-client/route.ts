// The browser split: pre-request stage (requestData, scriptState) and test stage.
import { testerExecuteEndpoints as e } from "@/server/contracts/tester-execute-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { executeClient } from "@/server/services/tester/execute-client";

export const POST = defineRoute(e.executeClient, ({ actor, namespace, body }) => executeClient(actor, namespace, body));
