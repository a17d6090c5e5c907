import { ADMIN_PASSWORD, startServer, type RunningServer } from "./server";

declare global {
  var __polymockE2eServer: RunningServer | undefined;
}

export default async function globalSetup() {
  const server = await startServer();
  globalThis.__polymockE2eServer = server;
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_DATABASE_URL = server.databaseUrl;
  process.env.E2E_GRPC_PORT = String(server.grpcPort);
  process.env.E2E_ADMIN_PASSWORD = ADMIN_PASSWORD;
}
