// One collection: read (with its tree), change, move to the trash.
import { testerCollectionEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { deleteCollection, getCollection, updateCollection } from "@/server/services/tester/collections";

export const GET = defineRoute(testerCollectionEndpoints.get, ({ namespace, params }) => getCollection(namespace, params.id));
export const PUT = defineRoute(testerCollectionEndpoints.update, ({ actor, namespace, params, body }) => updateCollection(namespace, params.id, body, actor));
export const DELETE = defineRoute(testerCollectionEndpoints.remove, ({ namespace, params, query }) => deleteCollection(namespace, params.id, { permanent: query.permanent }));
