// Requests no mock answered: list, ignore, delete, clear, and turn one into a
// mock through the editor (draft, then save).
import { z } from "zod";
import { IdParams } from "@/server/contracts/common";
import { MockInput } from "@/server/contracts/mock";
import { SaveIntent } from "@/server/contracts/mock-api";
import { DeleteUndefinedRequestsInput, ListUndefinedRequestsQuery } from "@/server/contracts/organisation-endpoints";
import {
  clearUndefinedRequests,
  deleteUndefinedRequests,
  listUndefinedRequests,
  mockDraftFromUndefinedRequest,
  saveMockForUndefinedRequest,
  setUndefinedRequestIgnored,
} from "@/server/services/undefined-requests";
import { nsDelete, nsRead, nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

const ListInput = ListUndefinedRequestsQuery.omit({ namespace: true, includeIgnored: true }).extend({ includeIgnored: z.boolean().optional() });

export const undefinedRequestsRouter = createTRPCRouter({
  list: nsRead.input(ListInput).query(({ ctx, input }) => listUndefinedRequests(ctx.scope, input)),
  ignore: nsWrite.input(IdParams.extend({ ignored: z.boolean() })).mutation(({ ctx, input }) => setUndefinedRequestIgnored(ctx.scope, input.id, input.ignored)),
  // The contract is strict; merged with the namespace selector it would refuse `namespace` itself.
  remove: nsDelete.input(z.object({ ids: DeleteUndefinedRequestsInput.shape.ids })).mutation(({ ctx, input }) => deleteUndefinedRequests(ctx.scope, input.ids)),
  clear: nsDelete.mutation(({ ctx }) => clearUndefinedRequests(ctx.scope)),
  draft: nsRead.input(IdParams).query(({ ctx, input }) => mockDraftFromUndefinedRequest(ctx.scope, input.id)),
  saveMock: nsWrite
    .input(IdParams.extend({ mock: MockInput, intent: SaveIntent.optional() }))
    .mutation(({ ctx, input }) => saveMockForUndefinedRequest(ctx.actor, ctx.scope, input.id, input.mock, input.intent)),
});
