import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { listVersions } from "@/server/services/mock-management";

export const GET = defineRoute(mockEndpoints.versions, ({ namespace, params }) => listVersions(namespace, params.id));
