// The request log of a namespace or of one mock, newest first. Live updates
// come from GET /api/v1/events (SSE); the console refetches this on each hit.
import { z } from "zod";
import { MockId } from "@/server/contracts/mock";
import { listRequestLogs } from "@/server/services/request-log-list";
import { nsRead } from "../namespaced";
import { createTRPCRouter } from "../trpc";

export const requestLogsRouter = createTRPCRouter({
  list: nsRead
    .input(z.object({ mockId: MockId.optional(), limit: z.number().int().min(1).max(1000).default(100) }))
    .query(({ ctx, input }) => listRequestLogs(ctx.scope, input)),
});
