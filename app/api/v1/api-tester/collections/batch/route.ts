// Several collections to the trash, all or none.
import { testerCollectionEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { deleteCollections } from "@/server/services/tester/collections";

export const DELETE = defineRoute(testerCollectionEndpoints.batchDelete, ({ namespace, body }) => deleteCollections(namespace, body.ids));
