// Generators for the Import screen: the same service as the REST routes.
import { z } from "zod";
import { GENERATOR_KINDS, GeneratorRequest } from "@/server/contracts/generators";
import { SpecRequest } from "@/server/contracts/spec-builder";
import { previewGenerator, runGenerator } from "@/server/services/generators";
import { buildSpecification } from "@/server/services/spec-builder";
import { nsRead, nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

const Input = z.object({ kind: z.enum(GENERATOR_KINDS), request: GeneratorRequest });

export const generatorsRouter = createTRPCRouter({
  // A mutation: a preview may fetch a URL and parse megabytes; nothing to cache.
  preview: nsRead.input(Input).mutation(({ ctx, input }) => previewGenerator(input.kind, ctx.scope, input.request)),
  generate: nsWrite.input(Input).mutation(({ ctx, input }) => runGenerator(input.kind, ctx.actor, ctx.scope, input.request)),
  // A mutation: each export is written to the audit log.
  spec: nsRead.input(z.object({ request: SpecRequest })).mutation(({ ctx, input }) => buildSpecification(ctx.actor, ctx.scope, input.request)),
});
