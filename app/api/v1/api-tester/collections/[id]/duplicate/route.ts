// A deep copy of a collection.
import { testerCollectionEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { duplicateCollection } from "@/server/services/tester/collections";

export const POST = defineRoute(testerCollectionEndpoints.duplicate, ({ actor, namespace, params }) => duplicateCollection(actor, namespace, params.id));
