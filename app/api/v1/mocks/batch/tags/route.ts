import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { batchTagMocks } from "@/server/services/mock-batch";

export const PATCH = defineRoute(mockEndpoints.batchTags, ({ actor, namespace, body }) => batchTagMocks(actor, namespace, body));
