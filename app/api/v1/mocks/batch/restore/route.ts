import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { batchRestoreMocks } from "@/server/services/mock-batch";

export const POST = defineRoute(mockEndpoints.batchRestore, ({ actor, namespace, body }) => batchRestoreMocks(actor, namespace, body.ids));
