// Imports for the UI over tRPC (apiTester.imports.*): the same services as
// POST /api/v1/api-tester/import/{postman,postman-env,mockarty}. The document
// is the text as pasted or read from a file; `preview` saves nothing.
import { z } from "zod";
import { importNativeCollection } from "@/server/services/tester/import-collection";
import { importPostmanCollection, importPostmanEnvironment } from "@/server/services/tester/import-postman";
import { nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

const ImportInput = z.object({
  document: z.string().min(1, "the document is empty").max(32 * 1024 * 1024),
  preview: z.boolean().optional(),
  name: z.string().trim().min(1).max(255).optional(),
});
const bodyOf = (input: z.infer<typeof ImportInput>) => ({ text: input.document, fields: {} });
const queryOf = (input: z.infer<typeof ImportInput>) => ({ preview: input.preview, name: input.name });

export const apiTesterImportsRouter = createTRPCRouter({
  postman: nsWrite.input(ImportInput).mutation(({ ctx, input }) => importPostmanCollection(ctx.actor, ctx.scope, bodyOf(input), queryOf(input))),
  postmanEnvironment: nsWrite.input(ImportInput).mutation(({ ctx, input }) => importPostmanEnvironment(ctx.actor, ctx.scope, bodyOf(input), queryOf(input))),
  native: nsWrite.input(ImportInput).mutation(({ ctx, input }) => importNativeCollection(ctx.actor, ctx.scope, bodyOf(input), queryOf(input))),
});
