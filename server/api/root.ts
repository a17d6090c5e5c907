// The tRPC API of the UI: one router per domain, each a thin layer over the
// same service functions the REST route handlers call.
import { auditRouter } from "./routers/audit";
import { authRouter } from "./routers/auth";
import { emailRouter } from "./routers/email";
import { identityProvidersRouter } from "./routers/identity-providers";
import { namespacesRouter } from "./routers/namespaces";
import { tokensRouter } from "./routers/tokens";
import { usersRouter } from "./routers/users";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  auth: authRouter,
  tokens: tokensRouter,
  namespaces: namespacesRouter,
  users: usersRouter,
  identityProviders: identityProvidersRouter,
  email: emailRouter,
  audit: auditRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in-process, for server components (app/_trpc/server.ts). */
export const createCaller = createCallerFactory(appRouter);
