import { storeEndpoints } from "@/server/contracts/store-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { getStore, setStoreValue } from "@/server/services/store-api";
import { GLOBAL } from "@/server/services/stores";

export const GET = defineRoute(storeEndpoints.getGlobal, ({ namespace }) => getStore(namespace, GLOBAL));
export const POST = defineRoute(storeEndpoints.setGlobal, ({ namespace, body }) => setStoreValue(namespace, GLOBAL, body));
