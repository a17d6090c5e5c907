// Generated k6 scripts and snippets for the performance screens: the same service as the REST routes.
import { z } from "zod";
import { RunCollectionInput } from "@/server/contracts/perf-collection-endpoints";
import { PerfScriptFromConfigInput, PerfScriptFromHarInput, PerfScriptFromRequestInput } from "@/server/contracts/perf-script-endpoints";
import { collectionsToLoadScript, generateScriptFromConfig, generateScriptFromHar, generateScriptFromRequest, listPerfSnippets } from "@/server/services/perf/scripts";
import { nsRead } from "../namespaced";
import { createTRPCRouter, protectedProcedure } from "../trpc";

// Wrapped: the bodies are strict objects, and tRPC hands every input parser the whole input (namespace included).
export const perfScriptsRouter = createTRPCRouter({
  // Mutations: each compiles the script in a fresh isolate; nothing to cache.
  fromConfig: nsRead.input(z.object({ request: PerfScriptFromConfigInput })).mutation(({ input }) => generateScriptFromConfig(input.request)),
  fromRequest: nsRead.input(z.object({ request: PerfScriptFromRequestInput })).mutation(({ ctx, input }) => generateScriptFromRequest(ctx.actor, ctx.scope, input.request)),
  /**
   * The script a collection load run would run (the API tester's "Save as load test"): the run's
   * selection, options and environment choice; the __ENV secrets stay in the environment, never in the answer.
   */
  fromCollections: nsRead
    .input(z.object({ request: RunCollectionInput.pick({ collectionIds: true, perfOptions: true, environmentId: true }) }))
    .mutation(async ({ ctx, input }) => {
      const g = await collectionsToLoadScript(ctx.actor, ctx.scope, input.request);
      return { script: g.script, options: g.options, variables: g.variables, warnings: g.warnings, collectionIds: g.collectionIds, environmentId: g.environmentId };
    }),
  fromHar: nsRead.input(z.object({ request: PerfScriptFromHarInput })).mutation(({ input }) => generateScriptFromHar(input.request)),
  snippets: protectedProcedure.query(() => listPerfSnippets()),
});
