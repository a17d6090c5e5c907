// Template files and temporary files. The browser sends and receives file
// contents base64-encoded inside tRPC's JSON; the services enforce the sizes.
import { z } from "zod";
import { TEMP_FILE_MAX_BYTES, TEMPLATE_MAX_BYTES, TempFileName, TempFileParams, TemplateFileName, TemplateParams } from "@/server/contracts/file-endpoints";
import { deleteTempFile, listTempFiles, readTempFile, uploadTempFile } from "@/server/services/temp-files";
import { deleteTemplate, listTemplates, readTemplate, saveTemplate } from "@/server/services/templates";
import { nsDelete, nsRead, nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

const base64Of = (maxBytes: number) => z.string().max(Math.ceil(maxBytes / 3) * 4 + 8).regex(/^[A-Za-z0-9+/]*={0,2}$/, "base64");
const ContentType = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;.*)?$/, "a media type such as text/plain")
  .catch("application/octet-stream");
const bytesOf = (b64: string) => new Uint8Array(Buffer.from(b64, "base64"));
const download = (f: { fileName: string; contentType: string; bytes: Uint8Array }) => ({
  fileName: f.fileName,
  contentType: f.contentType,
  contentBase64: Buffer.from(f.bytes).toString("base64"),
});

export const templatesRouter = createTRPCRouter({
  list: nsRead.query(({ ctx }) => listTemplates(ctx.scope)),
  download: nsRead.input(TemplateParams).query(async ({ ctx, input }) => download(await readTemplate(ctx.scope, input.fileName))),
  upload: nsWrite
    .input(z.object({ fileName: TemplateFileName, contentType: ContentType, contentBase64: base64Of(TEMPLATE_MAX_BYTES) }))
    .mutation(({ ctx, input }) => saveTemplate(ctx.scope, input.fileName, { bytes: bytesOf(input.contentBase64), contentType: input.contentType })),
  remove: nsDelete.input(TemplateParams).mutation(({ ctx, input }) => deleteTemplate(ctx.scope, input.fileName)),
});

export const tempFilesRouter = createTRPCRouter({
  list: nsRead.query(({ ctx }) => listTempFiles(ctx.actor, ctx.scope)),
  download: nsRead.input(TempFileParams).query(async ({ ctx, input }) => download(await readTempFile(ctx.actor, ctx.scope, input.fileId))),
  upload: nsWrite
    .input(z.object({ fileName: TempFileName, contentType: ContentType, contentBase64: base64Of(TEMP_FILE_MAX_BYTES) }))
    .mutation(async ({ ctx, input }) => (await uploadTempFile(ctx.actor, ctx.scope, { fileName: input.fileName, contentType: input.contentType, bytes: bytesOf(input.contentBase64) })).file),
  remove: nsDelete.input(TempFileParams).mutation(({ ctx, input }) => deleteTempFile(ctx.actor, ctx.scope, input.fileId)),
});
