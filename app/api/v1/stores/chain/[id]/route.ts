import { storeEndpoints } from "@/server/contracts/store-endpoints";
import { withBodyNamespace } from "@/server/http/body-namespace";
import { defineRoute } from "@/server/http/define-route";
import { getStore, setStoreValue } from "@/server/services/store-api";

export const GET = defineRoute(storeEndpoints.getChain, ({ namespace, params }) => getStore(namespace, params.id));
export const POST = withBodyNamespace(defineRoute(storeEndpoints.setChain, ({ namespace, params, body }) => setStoreValue(namespace, params.id, body)));
