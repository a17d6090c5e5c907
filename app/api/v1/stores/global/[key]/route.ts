import { storeEndpoints } from "@/server/contracts/store-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { deleteStoreValue } from "@/server/services/store-api";
import { GLOBAL } from "@/server/services/stores";

export const DELETE = defineRoute(storeEndpoints.deleteGlobal, ({ namespace, params }) => deleteStoreValue(namespace, GLOBAL, params.key));
