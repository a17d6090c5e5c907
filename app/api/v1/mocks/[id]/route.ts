import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { getMock } from "@/server/services/mocks";

export const GET = defineRoute(mockEndpoints.get, ({ namespace, params }) => getMock(namespace, params.id));
