import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { purgeMock } from "@/server/services/mock-management";

export const DELETE = defineRoute(mockEndpoints.purge, ({ actor, namespace, params }) => purgeMock(actor, namespace, params.id));
