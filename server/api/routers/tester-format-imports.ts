// tRPC for the import wizard's spec and tool formats (OpenAPI, WSDL, GraphQL,
// MCP, HAR, SoapUI, JMeter, gRPC): the same services as
// POST /api/v1/api-tester/import/<format>, with the document as text.
import { z } from "zod";
import { ImportGrpcInput } from "@/server/contracts/grpc-endpoints";
import { MAX_IMPORT_BYTES } from "@/server/http/import-request";
import { importGrpc } from "@/server/services/tester/import-grpc";
import { FORMAT_IMPORTS, importFormat, importJmx } from "@/server/services/tester/import-formats";
import { nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

const DocumentInput = z.object({
  document: z.string().min(1, "the document is empty").max(MAX_IMPORT_BYTES).optional().describe("the document's text (JSON, YAML or XML)"),
  url: z.string().max(2000).optional().describe("MCP: a live server to read when no document is given; GraphQL and MCP: the endpoint for the collection's URL variable"),
  name: z.string().trim().min(1).max(255).optional(),
  preview: z.boolean().optional(),
});
type DocumentInput = z.infer<typeof DocumentInput>;

/** The body the services read, as the REST routes' reader gives it. */
function bodyOf(input: DocumentInput) {
  if (input.document === undefined) return { text: JSON.stringify({ url: input.url }), fields: {}, json: { url: input.url } };
  return { text: input.document, fields: input.url ? { url: input.url } : {} };
}

export const testerFormatImportsRouter = createTRPCRouter({
  document: nsWrite
    .input(DocumentInput.extend({ format: z.enum(FORMAT_IMPORTS) }).refine((i) => i.document !== undefined || (i.format === "mcp" && i.url), { message: "give the document (or, for MCP, a url)", path: ["document"] }))
    .mutation(({ ctx, input }) => importFormat(input.format, ctx.actor, ctx.scope, bodyOf(input), { preview: input.preview, name: input.name })),
  jmx: nsWrite.input(DocumentInput.extend({ document: z.string().min(1).max(MAX_IMPORT_BYTES) })).mutation(({ ctx, input }) => importJmx(ctx.actor, ctx.scope, bodyOf(input), { preview: input.preview, name: input.name })),
  grpc: nsWrite
    .input(z.object({ files: ImportGrpcInput.shape.files.unwrap(), name: z.string().trim().min(1).max(255).optional(), preview: z.boolean().optional() }))
    .mutation(({ ctx, input }) => importGrpc(ctx.actor, ctx.scope, { files: input.files }, { preview: input.preview, name: input.name })),
});
