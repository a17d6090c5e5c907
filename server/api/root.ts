// The tRPC API of the UI: one router per domain, each a thin layer over the
// same service functions the REST route handlers call.
import { apiTesterRouter } from "./routers/api-tester";
import { auditRouter } from "./routers/audit";
import { brokersRouter } from "./routers/brokers";
import { dashboardRouter } from "./routers/dashboard";
import { authRouter } from "./routers/auth";
import { emailRouter } from "./routers/email";
import { tempFilesRouter, templatesRouter } from "./routers/files";
import { grpcProtosRouter } from "./routers/grpc-protos";
import { identityProvidersRouter } from "./routers/identity-providers";
import { membersRouter } from "./routers/members";
import { foldersRouter, tagsRouter } from "./routers/mock-organisation";
import { mocksRouter } from "./routers/mocks";
import { namespacesRouter } from "./routers/namespaces";
import { perfRouter } from "./routers/perf";
import { generatorsRouter } from "./routers/generators";
import { perfScriptsRouter } from "./routers/perf-scripts";
import { protocolServersRouter } from "./routers/protocol-servers";
import { smtpMailboxRouter } from "./routers/smtp-mailbox";
import { requestLogsRouter } from "./routers/request-logs";
import { runnersRouter } from "./routers/runners";
import { storesRouter } from "./routers/stores";
import { tokensRouter } from "./routers/tokens";
import { undefinedRequestsRouter } from "./routers/undefined-requests";
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
  // The web console for mocks (issue 5).
  mocks: mocksRouter,
  folders: foldersRouter,
  tags: tagsRouter,
  undefinedRequests: undefinedRequestsRouter,
  requestLogs: requestLogsRouter,
  stores: storesRouter,
  templates: templatesRouter,
  tempFiles: tempFilesRouter,
  members: membersRouter,
  dashboard: dashboardRouter,
  protocolServers: protocolServersRouter,
  smtpMailbox: smtpMailboxRouter,
  grpcProtos: grpcProtosRouter,
  generators: generatorsRouter,
  brokers: brokersRouter,
  // The API tester's collections, environments, history and runs (issue 15).
  apiTester: apiTesterRouter,
  // Performance testing: saved load tests, runs, results, schedules (issue 17).
  perf: perfRouter,
  // Performance testing (issue 17): generated k6 scripts and snippets.
  perfScripts: perfScriptsRouter,
  // Runner agents and their tasks (issue 17).
  runners: runnersRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in-process, for server components (app/_trpc/server.ts). */
export const createCaller = createCallerFactory(appRouter);
