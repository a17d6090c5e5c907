// Mocks from API tester traffic for the UI: "Create mock now" on a response
// and "Generate mocks" on a collection; the same services as
// POST /api/v1/api-tester/mock-from-response and /mocks-from-collection.
import { z } from "zod";
import { MockFromResponseInput, MocksFromCollectionInput } from "@/server/contracts/tester-mock-endpoints";
import { mockFromResponse, mocksFromCollection } from "@/server/services/tester/mocks-from-traffic";
import { nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

// Wrapped: the inputs are strict, and tRPC merges the namespace selector into the top level.
export const apiTesterMocksRouter = createTRPCRouter({
  fromResponse: nsWrite.input(z.object({ input: MockFromResponseInput })).mutation(({ ctx, input }) => mockFromResponse(ctx.actor, ctx.scope, input.input)),
  fromCollection: nsWrite.input(z.object({ input: MocksFromCollectionInput })).mutation(({ ctx, input }) => mocksFromCollection(ctx.actor, ctx.scope, input.input)),
});
