// Send a saved or inline request from the server.
import { testerExecuteEndpoints as e } from "@/server/contracts/tester-execute-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { executeRequest } from "@/server/services/tester/execute";

export const POST = defineRoute(e.execute, ({ actor, namespace, body, req }) => executeRequest(actor, namespace, body, req.signal));
