import { storeEndpoints } from "@/server/contracts/store-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { getStore, setStoreValue } from "@/server/services/store-api";

export const GET = defineRoute(storeEndpoints.getChain, ({ namespace, params }) => getStore(namespace, params.id));
export const POST = defineRoute(storeEndpoints.setChain, ({ namespace, params, body }) => setStoreValue(namespace, params.id, body));
