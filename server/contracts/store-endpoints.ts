// The store endpoints: a namespace's global store and its chain stores, one
// key and one value per write (spec: Stores).
import { z } from "zod";
import { NamespaceName, OkResponse } from "./common";
import { endpoint } from "./endpoint";

/** A stored value may take at most this many bytes as JSON (docs/decisions.md, Stores and files). */
export const STORE_VALUE_MAX_BYTES = 1024 * 1024;
/** Keys per store (the global store of a namespace, or one chain's store). */
export const STORE_MAX_KEYS = 10_000;

export const StoreKey = z.string().min(1, "must not be empty").max(200, "at most 200 characters");
export const ChainId = z.string().min(1, "must not be empty").max(200, "at most 200 characters");

export const SetStoreValueInput = z
  .object({
    key: StoreKey,
    // Any JSON value, null included; absent is an error rather than a silent null.
    value: z.unknown().refine((v) => v !== undefined, "required (any JSON value)").describe("any JSON value; at most 1 MiB as JSON"),
    namespace: NamespaceName.optional().describe("names the namespace, like ?namespace=; must agree with it when both are given"),
  })
  .strict();
export type SetStoreValueInput = z.infer<typeof SetStoreValueInput>;

export const StoreView = z.object({
  namespace: z.string(),
  chainId: z.string().optional().describe("present for a chain store"),
  store: z.record(z.string(), z.unknown()),
  count: z.number().int(),
});
export type StoreView = z.infer<typeof StoreView>;

export const StoreValueView = z.object({
  namespace: z.string(),
  chainId: z.string().optional().describe("present for a chain store"),
  key: z.string(),
  value: z.unknown(),
});
export type StoreValueView = z.infer<typeof StoreValueView>;

export const StoreKeyParams = z.object({ key: StoreKey });
export const ChainParams = z.object({ id: ChainId });
export const ChainKeyParams = z.object({ id: ChainId, key: StoreKey });

const tag = "Stores";
const limits = "one pair per request; value any JSON up to 1 MiB; 409 store_full beyond 10,000 keys";
export const storeEndpoints = {
  getGlobal: endpoint({ method: "GET", path: "/api/v1/stores/global", tag, summary: "All pairs of the namespace's global store", auth: "user", namespaced: true, permission: "read", response: StoreView }),
  setGlobal: endpoint({ method: "POST", path: "/api/v1/stores/global", tag, summary: `Set one key of the global store (${limits})`, auth: "user", namespaced: true, permission: "write", body: SetStoreValueInput, response: StoreValueView , statuses: { 409: "store_full: the store already holds 10,000 keys" } }),
  deleteGlobal: endpoint({ method: "DELETE", path: "/api/v1/stores/global/{key}", tag, summary: "Delete a key of the global store (404 when absent)", auth: "user", namespaced: true, permission: "delete", params: StoreKeyParams, response: OkResponse }),
  getChain: endpoint({ method: "GET", path: "/api/v1/stores/chain/{id}", tag, summary: "All pairs of one chain's store", auth: "user", namespaced: true, permission: "read", params: ChainParams, response: StoreView }),
  setChain: endpoint({ method: "POST", path: "/api/v1/stores/chain/{id}", tag, summary: `Set one key of a chain's store (${limits})`, auth: "user", namespaced: true, permission: "write", params: ChainParams, body: SetStoreValueInput, response: StoreValueView , statuses: { 409: "store_full: the store already holds 10,000 keys" } }),
  deleteChain: endpoint({ method: "DELETE", path: "/api/v1/stores/chain/{id}/{key}", tag, summary: "Delete a key of a chain's store (404 when absent)", auth: "user", namespaced: true, permission: "delete", params: ChainKeyParams, response: OkResponse }),
} as const;
