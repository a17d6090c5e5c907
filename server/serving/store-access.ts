// The engine's view of one namespace's stores while serving: reads from the
// process's loaded cache (server/services/stores.ts; load it first), writes
// through to the database so a later request on any process reads them.
import type { StoreAccess } from "@/server/engine/types";
import { GLOBAL, writeStore, type NamespaceStores } from "@/server/services/stores";

/** Made once per (index, stores) pair (./engine-deps.ts), not per request. */
export function storeAccessFor(namespaceId: string, stores: NamespaceStores): StoreAccess {
  return {
    getGlobal: (_ns, key) => stores.get(GLOBAL)?.get(key),
    getChain: (_ns, chainId, key) => stores.get(chainId)?.get(key),
    setGlobal: (_ns, key, value) => writeStore(namespaceId, GLOBAL, key, value),
    setChain: (_ns, chainId, key, value) => writeStore(namespaceId, chainId, key, value),
  };
}
