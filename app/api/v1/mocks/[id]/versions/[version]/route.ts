import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { getVersion } from "@/server/services/mock-management";

export const GET = defineRoute(mockEndpoints.version, ({ namespace, params }) => getVersion(namespace, params.id, params.version));
