// The caller's execution history in the namespace.
import { testerRequestEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { listHistory } from "@/server/services/tester/history";

export const GET = defineRoute(testerRequestEndpoints.history, ({ actor, namespace, query }) => listHistory(actor, namespace, query));
