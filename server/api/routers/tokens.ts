// The caller's API tokens and the delegated credentials they may manage.
import { IdParams } from "@/server/contracts/common";
import { CreateDelegatedInput, CreateTokenInput, UpdateTokenInput } from "@/server/contracts/auth";
import {
  createDelegated,
  createToken,
  listDelegated,
  listTokens,
  revokeDelegated,
  revokeToken,
  rotateDelegated,
  updateToken,
} from "@/server/services/credentials";
import { createTRPCRouter, permissionProcedure } from "../trpc";

const read = permissionProcedure("read");
const write = permissionProcedure("write");

export const tokensRouter = createTRPCRouter({
  list: read.query(({ ctx }) => listTokens(ctx.actor)),
  create: write.input(CreateTokenInput).mutation(({ ctx, input }) => createToken(ctx.actor, input)),
  update: write
    .input(IdParams.extend({ patch: UpdateTokenInput }))
    .mutation(({ ctx, input }) => updateToken(ctx.actor, input.id, input.patch)),
  revoke: write.input(IdParams).mutation(({ ctx, input }) => revokeToken(ctx.actor, input.id)),

  delegated: createTRPCRouter({
    list: read.query(({ ctx }) => listDelegated(ctx.actor)),
    create: write.input(CreateDelegatedInput).mutation(({ ctx, input }) => createDelegated(ctx.actor, input)),
    rotate: write.input(IdParams).mutation(({ ctx, input }) => rotateDelegated(ctx.actor, input.id)),
    revoke: write.input(IdParams).mutation(({ ctx, input }) => revokeDelegated(ctx.actor, input.id)),
  }),
});
