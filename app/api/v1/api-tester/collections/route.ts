// Collections of the namespace: list and create.
import { testerCollectionEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { createCollection, listCollections } from "@/server/services/tester/collections";

export const GET = defineRoute(testerCollectionEndpoints.list, ({ namespace, query }) => listCollections(namespace, query));
export const POST = defineRoute(testerCollectionEndpoints.create, ({ actor, namespace, body }) => createCollection(actor, namespace, body));
