// The namespace's global store and its chain stores.
import { z } from "zod";
import { ChainId, StoreKey } from "@/server/contracts/store-endpoints";
import { deleteStoreValue, getStore, listChainIds, setStoreValue } from "@/server/services/store-api";
import { GLOBAL } from "@/server/services/stores";
import { nsDelete, nsRead, nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

/** No chain id: the global store. */
const Which = z.object({ chainId: ChainId.optional() });
const chainOf = (input: { chainId?: string }) => input.chainId ?? GLOBAL;

export const storesRouter = createTRPCRouter({
  chains: nsRead.query(({ ctx }) => listChainIds(ctx.scope)),
  get: nsRead.input(Which).query(({ ctx, input }) => getStore(ctx.scope, chainOf(input))),
  set: nsWrite
    .input(Which.extend({ key: StoreKey, value: z.unknown().refine((v) => v !== undefined, "required (any JSON value)") }))
    .mutation(({ ctx, input }) => setStoreValue(ctx.scope, chainOf(input), { key: input.key, value: input.value })),
  remove: nsDelete.input(Which.extend({ key: StoreKey })).mutation(({ ctx, input }) => deleteStoreValue(ctx.scope, chainOf(input), input.key)),
});
