// A namespace's .proto files for the UI (upload, list, read, delete) and the
// methods they define with response skeletons for the mock editor: the same
// service functions as the REST routes.
import { z } from "zod";
import { IdParams } from "@/server/contracts/common";
import { PROTO_MAX_FILES, ProtoFileInput } from "@/server/contracts/grpc-endpoints";
import { deleteProto, getProto, importProtos, listGrpcMethods, listProtos } from "@/server/services/grpc-protos";
import { nsDelete, nsRead, nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

export const grpcProtosRouter = createTRPCRouter({
  list: nsRead.query(({ ctx }) => listProtos(ctx.scope)),
  get: nsRead.input(IdParams).query(({ ctx, input }) => getProto(ctx.scope, input.id)),
  // The UI always sends the list form; the REST body's single-file form is for scripts.
  upload: nsWrite.input(z.object({ files: z.array(ProtoFileInput).min(1, "at least one file").max(PROTO_MAX_FILES) })).mutation(({ ctx, input }) => importProtos(ctx.scope, { files: input.files })),
  remove: nsDelete.input(IdParams).mutation(({ ctx, input }) => deleteProto(ctx.scope, input.id)),
  methods: nsRead.query(({ ctx }) => listGrpcMethods(ctx.scope)),
});
