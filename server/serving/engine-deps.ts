// The engine's dependencies for one namespace (clock, randomness, stores,
// template files, the use limiter), made once per (index, stores) pair and
// reused by every request until either is rebuilt: nothing is made per request.
import type { EngineDeps } from "@/server/engine/types";
import type { NamespaceIndex } from "./mock-index";
import { namespaceStores, namespaceStoresNow, type NamespaceStores } from "@/server/services/stores";
import { storeAccessFor } from "./store-access";
import { takeUse } from "./use-limiter";

const clock = { now: () => Date.now() };
const random = { next: () => Math.random(), unseeded: true };

const depsCache = new WeakMap<NamespaceIndex, { stores: NamespaceStores; deps: EngineDeps }>();

export function engineDeps(index: NamespaceIndex, stores: NamespaceStores): EngineDeps {
  const cached = depsCache.get(index);
  if (cached && cached.stores === stores) return cached.deps;
  const deps: EngineDeps = {
    clock,
    random,
    stores: storeAccessFor(index.namespaceId, stores),
    files: index.files,
    takeUse: (mockId, limit) => takeUse(index.namespaceId, mockId, limit),
  };
  depsCache.set(index, { stores, deps });
  return deps;
}

/** The dependencies once the namespace's stores are loaded (awaits them the first time). */
export async function engineDepsFor(index: NamespaceIndex): Promise<EngineDeps> {
  return engineDeps(index, namespaceStoresNow(index.namespaceId) ?? (await namespaceStores(index.namespaceId)));
}
