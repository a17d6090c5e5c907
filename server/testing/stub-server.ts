// A real node:http server in front of the stub fast path (handleStubRequest,
// and WebSocket upgrades when asked), on a free port, with a namespace owned
// by a fresh user: what the protocol round-trip tests share. Call inside a
// test file that uses useTestDatabase().
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { saveMock } from "@/server/services/mocks";
import { resolveNamespace } from "@/server/services/namespace-access";
import { handleStubRequest } from "@/server/transport/http-stub";
import { stubRecorder } from "@/server/serving/recorder";
import { closeStubSockets, handleStubUpgrade } from "@/server/transport/ws-stub";
import { actorFor, makeNamespace, makeUser } from "./fixtures";

export interface StubServer {
  server: http.Server;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** origin + /stubs/<namespace> */
  base: string;
  actor: ReturnType<typeof actorFor>;
  scope: Awaited<ReturnType<typeof resolveNamespace>>;
  /** Saves a mock in the namespace and drops the cached indexes (the NOTIFY would a moment later; tests do not wait). */
  save(input: unknown): ReturnType<typeof saveMock>;
}

export function useStubServer(namespace: string, opts: { requestId?: string; webSockets?: boolean; beforeClose?: () => void | Promise<void> } = {}): StubServer {
  const server = http.createServer((req, res) => void handleStubRequest(req, res, opts.requestId ?? `${namespace}-test-request`));
  if (opts.webSockets) server.on("upgrade", handleStubUpgrade);
  const ctx = {
    server,
    save: async (input: unknown) => {
      const result = await saveMock(ctx.actor, ctx.scope, MockInput.parse(input));
      invalidateAll();
      return result;
    },
  } as StubServer;
  beforeAll(async () => {
    const { user } = await makeUser();
    await makeNamespace(namespace, { [user.id]: "owner" });
    ctx.actor = actorFor(user);
    ctx.scope = await resolveNamespace(ctx.actor, namespace);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    ctx.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ctx.base = `${ctx.origin}/stubs/${namespace}`;
  });
  afterAll(async () => {
    await opts.beforeClose?.();
    if (opts.webSockets) await closeStubSockets(100);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await stubRecorder().drain();
    await stopListening();
    invalidateAll();
  });
  return ctx;
}
