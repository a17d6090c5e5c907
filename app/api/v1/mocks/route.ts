import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { saveMock } from "@/server/services/mocks";

export const POST = defineRoute(mockEndpoints.save, ({ actor, namespace, body, query }) => saveMock(actor, namespace, body, query.intent));
