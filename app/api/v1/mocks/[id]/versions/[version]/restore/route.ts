import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { restoreVersion } from "@/server/services/mock-management";

export const POST = defineRoute(mockEndpoints.restoreVersion, ({ actor, namespace, params }) => restoreVersion(actor, namespace, params.id, params.version));
