import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { batchMoveMocks } from "@/server/services/mock-batch";

export const PATCH = defineRoute(mockEndpoints.batchMove, ({ actor, namespace, body }) => batchMoveMocks(actor, namespace, body));
