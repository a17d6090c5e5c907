// Protocol servers of a namespace for the UI: the same service as the REST routes.
import { z } from "zod";
import { IdParams } from "@/server/contracts/common";
import { CreateProtocolServerInput, UpdateProtocolServerInput } from "@/server/contracts/protocol-servers";
import {
  createProtocolServer,
  deleteProtocolServer,
  getProtocolServer,
  listProtocolServers,
  testProtocolServer,
  updateProtocolServer,
} from "@/server/services/protocol-servers";
import { listPluginProtocols } from "@/server/services/plugin-protocols";
import { nsDelete, nsRead, nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

export const protocolServersRouter = createTRPCRouter({
  list: nsRead.query(({ ctx }) => listProtocolServers(ctx.scope)),
  get: nsRead.input(IdParams).query(({ ctx, input }) => getProtocolServer(ctx.scope, input.id)),
  create: nsWrite.input(z.object({ server: CreateProtocolServerInput })).mutation(({ ctx, input }) => createProtocolServer(ctx.scope, input.server)),
  update: nsWrite.input(IdParams.extend({ patch: UpdateProtocolServerInput })).mutation(({ ctx, input }) => updateProtocolServer(ctx.scope, input.id, input.patch)),
  remove: nsDelete.input(IdParams).mutation(({ ctx, input }) => deleteProtocolServer(ctx.scope, input.id)),
  test: nsRead.input(IdParams).mutation(({ ctx, input }) => testProtocolServer(ctx.scope, input.id)),
  pluginProtocols: nsRead.query(({ ctx }) => listPluginProtocols(ctx.scope)),
});
