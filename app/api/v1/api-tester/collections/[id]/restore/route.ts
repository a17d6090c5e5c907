// Bring a collection back from the trash.
import { testerCollectionEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { restoreCollection } from "@/server/services/tester/collections";

export const POST = defineRoute(testerCollectionEndpoints.restore, ({ namespace, params }) => restoreCollection(namespace, params.id));
