import { storeEndpoints } from "@/server/contracts/store-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { deleteStoreValue } from "@/server/services/store-api";

export const DELETE = defineRoute(storeEndpoints.deleteChain, ({ namespace, params }) => deleteStoreValue(namespace, params.id, params.key));
