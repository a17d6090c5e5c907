// Mocks for the web console: list, save (with the duplicate-conflict intents),
// recycle bin, batches, versions, preview ("Try it") and copy to another
// namespace. Each procedure is one call to the service REST uses.
import { z } from "zod";
import { MockInput } from "@/server/contracts/mock";
import {
  BatchMoveInput,
  BatchTagsInput,
  ChainParams,
  CopyToNamespaceInput,
  ListMocksFilters,
  MockIdParams,
  MockIds,
  SaveIntent,
  VersionParams,
} from "@/server/contracts/mock-api";
import { PreviewInput } from "@/server/contracts/organisation-endpoints";
import { FAKE_NAMES } from "@/server/engine/fake";
import { batchDeleteMocks, batchMoveMocks, batchRestoreMocks, batchTagMocks } from "@/server/services/mock-batch";
import {
  chainMocks,
  copyToNamespace,
  deleteChain,
  deleteMock,
  getVersion,
  listMocks,
  listVersions,
  purgeMock,
  restoreVersion,
} from "@/server/services/mock-management";
import { endpointOf, getMock, saveMock } from "@/server/services/mocks";
import { previewFromBody } from "@/server/serving/preview";
import { nsDelete, nsRead, nsWrite } from "../namespaced";
import { createTRPCRouter, permissionProcedure, protectedProcedure } from "../trpc";

/** The REST list filters, with booleans instead of query-string booleans. */
const ListInput = ListMocksFilters.omit({ namespace: true, onlyActive: true, deleted: true }).extend({
  onlyActive: z.boolean().optional(),
  deleted: z.boolean().optional(),
});

export const mocksRouter = createTRPCRouter({
  /** The REST list, each row with its method and route text for display. */
  list: nsRead.input(ListInput).query(async ({ ctx, input }) => {
    const page = await listMocks(ctx.scope, input);
    return { ...page, mocks: page.mocks.map((m) => ({ ...m, endpoint: endpointOf(m) })) };
  }),
  get: nsRead.input(MockIdParams).query(({ ctx, input }) => getMock(ctx.scope, input.id)),
  save: nsWrite
    .input(z.object({ mock: MockInput, intent: SaveIntent.optional() }))
    .mutation(({ ctx, input }) => saveMock(ctx.actor, ctx.scope, input.mock, input.intent)),
  remove: nsDelete.input(MockIdParams).mutation(({ ctx, input }) => deleteMock(ctx.actor, ctx.scope, input.id)),
  purge: nsDelete.input(MockIdParams).mutation(({ ctx, input }) => purgeMock(ctx.actor, ctx.scope, input.id)),

  versions: nsRead.input(MockIdParams).query(({ ctx, input }) => listVersions(ctx.scope, input.id)),
  version: nsRead.input(VersionParams).query(({ ctx, input }) => getVersion(ctx.scope, input.id, input.version)),
  restoreVersion: nsWrite.input(VersionParams).mutation(({ ctx, input }) => restoreVersion(ctx.actor, ctx.scope, input.id, input.version)),

  batchDelete: nsDelete.input(z.object({ ids: MockIds.shape.ids })).mutation(({ ctx, input }) => batchDeleteMocks(ctx.actor, ctx.scope, input.ids)),
  batchRestore: nsWrite.input(z.object({ ids: MockIds.shape.ids })).mutation(({ ctx, input }) => batchRestoreMocks(ctx.actor, ctx.scope, input.ids)),
  batchTags: nsWrite.input(z.object({ change: BatchTagsInput })).mutation(({ ctx, input }) => batchTagMocks(ctx.actor, ctx.scope, input.change)),
  batchMove: nsWrite.input(z.object({ move: BatchMoveInput })).mutation(({ ctx, input }) => batchMoveMocks(ctx.actor, ctx.scope, input.move)),

  /** The chain's active mocks, each with its method and route text like the list's rows. */
  chain: nsRead.input(ChainParams).query(async ({ ctx, input }) => {
    const chain = await chainMocks(ctx.scope, input.id);
    return { ...chain, mocks: chain.mocks.map((m) => ({ ...m, endpoint: endpointOf(m) })) };
  }),
  deleteChain: nsDelete.input(ChainParams).mutation(({ ctx, input }) => deleteChain(ctx.actor, ctx.scope, input.id)),
  preview: nsRead.input(z.object({ request: PreviewInput })).mutation(({ ctx, input }) => previewFromBody(ctx.scope, input.request)),
  copyToNamespace: permissionProcedure("write")
    .input(CopyToNamespaceInput)
    .mutation(({ ctx, input }) => copyToNamespace(ctx.actor, input)),

  /** What the template editor autocompletes: the `$.fake.<Name>` generators. */
  templateHints: protectedProcedure.query(() => ({ fakeNames: [...FAKE_NAMES] })),
});
