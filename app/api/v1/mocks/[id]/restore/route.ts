// One mock back from the recycle bin, found by id like GET /mocks/:id (the batch form is /mocks/batch/restore).
import { mockEndpoints as e } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { restoreMock } from "@/server/services/mock-management";
import { mockScope } from "@/server/services/mock-location";

export const POST = defineRoute(e.restore, async ({ actor, namespace, params }) => restoreMock(actor, await mockScope(actor, namespace, params.id, e.restore.permission), params.id));
