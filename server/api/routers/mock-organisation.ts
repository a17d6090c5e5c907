// Folders and tags of a namespace's mocks.
import { z } from "zod";
import { IdParams } from "@/server/contracts/common";
import { CreateFolderInput, CreateTagInput, MoveFolderInput, UpdateFolderInput } from "@/server/contracts/organisation-endpoints";
import { createFolder, deleteFolder, listFolders, moveFolder, updateFolder } from "@/server/services/folders";
import { createTag, listTags } from "@/server/services/tags";
import { nsDelete, nsRead, nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

export const foldersRouter = createTRPCRouter({
  list: nsRead.query(({ ctx }) => listFolders(ctx.scope)),
  create: nsWrite.input(z.object({ folder: CreateFolderInput })).mutation(({ ctx, input }) => createFolder(ctx.scope, input.folder)),
  update: nsWrite.input(IdParams.extend({ folder: UpdateFolderInput })).mutation(({ ctx, input }) => updateFolder(ctx.scope, input.id, input.folder)),
  move: nsWrite.input(IdParams.extend({ move: MoveFolderInput })).mutation(({ ctx, input }) => moveFolder(ctx.scope, input.id, input.move)),
  remove: nsDelete.input(IdParams).mutation(({ ctx, input }) => deleteFolder(ctx.scope, input.id)),
});

export const tagsRouter = createTRPCRouter({
  list: nsRead.query(({ ctx }) => listTags(ctx.scope)),
  create: nsWrite.input(z.object({ tag: CreateTagInput })).mutation(({ ctx, input }) => createTag(ctx.scope, input.tag)),
});
