// The namespace at a glance.
import { z } from "zod";
import { dashboardSummary, HIT_RANGES, type HitRange } from "@/server/services/dashboard";
import { nsRead } from "../namespaced";
import { createTRPCRouter } from "../trpc";

const Range = z.enum(Object.keys(HIT_RANGES) as [HitRange, ...HitRange[]]);

export const dashboardRouter = createTRPCRouter({
  summary: nsRead.input(z.object({ range: Range.default("24h") })).query(({ ctx, input }) => dashboardSummary(ctx.scope, input.range)),
});
