// The store endpoints: read, set and delete keys of a namespace's global
// store or of one chain's store. Writes go through ./stores.ts, which keeps
// the per-process caches the engine reads coherent across processes.
import {
  STORE_MAX_KEYS,
  STORE_VALUE_MAX_BYTES,
  type SetStoreValueInput,
  type StoreValueView,
  type StoreView,
} from "@/server/contracts/store-endpoints";
import { db } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import type { NamespaceScope } from "./namespace-access";
import { deleteStoreKey, GLOBAL, readStore, writeStore } from "./stores";

function chainField(chainId: string): { chainId?: string } {
  return chainId === GLOBAL ? {} : { chainId };
}

function storeName(chainId: string): string {
  return chainId === GLOBAL ? "the global store" : `the store of chain '${chainId}'`;
}

/** `chainId` GLOBAL ("") for the namespace's global store. */
export async function getStore(ns: NamespaceScope, chainId: string): Promise<StoreView> {
  const store = await readStore(ns.id, chainId);
  return { namespace: ns.name, ...chainField(chainId), store, count: Object.keys(store).length };
}

export async function setStoreValue(ns: NamespaceScope, chainId: string, input: SetStoreValueInput): Promise<StoreValueView> {
  if (input.namespace !== undefined && input.namespace !== ns.name) {
    const message = `names namespace '${input.namespace}' but the request is for '${ns.name}' (path, query or header)`;
    throw errors.validation(`Invalid body field 'namespace': ${message}`, [{ location: "body", field: "namespace", message }]);
  }
  const bytes = Buffer.byteLength(JSON.stringify(input.value), "utf8");
  if (bytes > STORE_VALUE_MAX_BYTES) {
    throw new AppError("payload_too_large", `A store value may take at most ${STORE_VALUE_MAX_BYTES} bytes as JSON; this one takes ${bytes}`, {
      status: 413,
      details: [{ location: "body", field: "value", message: `at most ${STORE_VALUE_MAX_BYTES} bytes as JSON` }],
    });
  }
  // A guard against runaway growth (each namespace's stores are cached in every
  // process), not an exact quota: concurrent writers of new keys may pass it together.
  const where = { namespaceId: ns.id, chainId };
  const exists = await db().storeEntry.findUnique({ where: { namespaceId_chainId_key: { ...where, key: input.key } }, select: { key: true } });
  if (!exists && (await db().storeEntry.count({ where })) >= STORE_MAX_KEYS) {
    throw new AppError("store_full", `${storeName(chainId)} already holds ${STORE_MAX_KEYS} keys; delete some before adding more`, {
      status: 409,
      details: { limitKeys: STORE_MAX_KEYS },
    });
  }
  await writeStore(ns.id, chainId, input.key, input.value);
  return { namespace: ns.name, ...chainField(chainId), key: input.key, value: input.value };
}

export async function deleteStoreValue(ns: NamespaceScope, chainId: string, key: string): Promise<{ ok: true }> {
  if (!(await deleteStoreKey(ns.id, chainId, key))) throw errors.notFound(`Key '${key}' in ${storeName(chainId)}`);
  return { ok: true };
}

/** Chain ids of the namespace that have a store or an active mock, sorted (the web console's chain picker). */
export async function listChainIds(ns: NamespaceScope): Promise<{ chainIds: string[]; count: number }> {
  const [stored, mocks] = await Promise.all([
    db().storeEntry.findMany({ where: { namespaceId: ns.id, chainId: { not: GLOBAL } }, distinct: ["chainId"], select: { chainId: true } }),
    db().mock.findMany({ where: { namespaceId: ns.id, deletedAt: null, chainId: { not: null } }, distinct: ["chainId"], select: { chainId: true } }),
  ]);
  const ids = new Set<string>();
  for (const r of [...stored, ...mocks]) if (r.chainId) ids.add(r.chainId);
  const chainIds = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { chainIds, count: chainIds.length };
}
