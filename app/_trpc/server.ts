// tRPC for server components: the same procedures, called in-process with a
// context built from the incoming request's headers (cookie, peer address).
import { headers } from "next/headers";
import { cache } from "react";
import { createCaller } from "@/server/api/root";
import { createTrpcContext } from "@/server/api/trpc";

/** The request's tRPC context (who is calling), once per render. */
export const serverContext = cache(async () => createTrpcContext({ headers: await headers() }));

export const serverCaller = cache(async () => createCaller(await serverContext()));
