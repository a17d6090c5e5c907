// The plugin wire listener with real clients: ioredis and Debian's redis-cli
// speak RESP to it (commands matched by socket mocks of serverName
// plugin:resp, replies encoded as Redis replies, AUTH picking the namespace,
// unmatched commands captured), and a node:net client speaks lines; the
// listing endpoint names the serverName to use.
import { execFile } from "node:child_process";
import net from "node:net";
import { promisify } from "node:util";
import Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as pluginRoute from "@/app/api/v1/plugin-protocols/route";
import { MockInput } from "@/server/contracts/mock";
import { db } from "@/server/db/client";
import { resetEnvCache } from "@/server/env";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { stubRecorder } from "@/server/serving/recorder";
import { saveMock } from "@/server/services/mocks";
import { resolveNamespace } from "@/server/services/namespace-access";
import { actorFor, call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { startHealthServer } from "../health-server";
import { startPluginListener, type PluginListener } from "./plugin-listener";

useTestDatabase();

let listener: PluginListener;
let cookie: string;
const clients: { disconnect(): void }[] = [];

beforeAll(async () => {
  const { user } = await makeUser();
  await makeNamespace("sandbox", { [user.id]: "owner" }).catch(() => undefined);
  await makeNamespace("cache-team", { [user.id]: "owner" });
  const actor = actorFor(user);
  cookie = await sessionCookie(user.id);
  const save = async (ns: string, input: unknown) => saveMock(actor, await resolveNamespace(actor, ns), MockInput.parse(input));
  await save("cache-team", { id: "get-user", socket: { serverName: "plugin:resp", event: "GET", conditions: [{ path: "$[0]", assertAction: "equals", value: "user:1" }] }, response: { payload: { name: "Ada", id: 1 } } });
  await save("cache-team", { id: "get-count", socket: { serverName: "plugin:resp", event: "GET", conditions: [{ path: "$[0]", assertAction: "equals", value: "count" }] }, response: { payload: 42 } });
  await save("cache-team", { id: "set-any", socket: { serverName: "plugin:resp", event: "SET" }, response: { payload: { simple: "OK" } } });
  await save("cache-team", { id: "lrange", socket: { serverName: "plugin:resp", event: "LRANGE" }, response: { payload: ["a", "$.req[0]", null] } });
  await save("cache-team", { id: "denied", socket: { serverName: "plugin:resp", event: "DEL" }, response: { payload: { error: "NOPERM not in this mock" } } });
  await save("cache-team", { id: "line-order", socket: { serverName: "plugin:line", event: "order" }, response: { payload: { accepted: "$.req.id" } } });
  invalidateAll();
  listener = await startPluginListener({ port: 0, host: "127.0.0.1", retryMs: 100 });
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await listener?.stop();
  await stubRecorder().drain();
  await stopListening();
  invalidateAll();
});

// ioredis as its users run it: its ready check (INFO) on, answered by the listener's built-in replies.
const redis = (ns?: string) => {
  const client = new Redis({ host: "127.0.0.1", port: listener.port(), username: ns, password: ns ? "any" : undefined, lazyConnect: true, maxRetriesPerRequest: 0 });
  clients.push(client);
  return client;
};

describe("RESP (plugin:resp)", () => {
  it("ioredis: AUTH picks the namespace, conditions on the arguments choose the mock, replies are Redis replies", async () => {
    const r = redis("cache-team");
    await r.connect();
    expect(await r.get("user:1")).toBe('{"name":"Ada","id":1}');
    expect(await r.get("count")).toBe(42);
    expect(await r.set("k", "v")).toBe("OK");
    expect(await r.lrange("mylist", 0, -1)).toEqual(["a", "mylist", null]);
    await expect(r.del("x")).rejects.toThrow(/NOPERM not in this mock/);
    expect(await r.ping()).toBe("PONG");
    // No mock answers it: an error reply naming the command, and an undefined request.
    await expect(r.hgetall("h")).rejects.toThrow(/no mock answers 'HGETALL' on plugin:resp in namespace 'cache-team'/);
    await stubRecorder().drain();
    const ns = await db().namespace.findUniqueOrThrow({ where: { name: "cache-team" } });
    const miss = await db().undefinedRequest.findFirst({ where: { namespaceId: ns.id, path: "/plugin:resp HGETALL" } });
    expect(miss).toMatchObject({ protocol: "tcp", body: ["h"] });
    // The client's own handshake (INFO, PING) is answered built in and is no undefined request.
    expect(await db().undefinedRequest.count({ where: { namespaceId: ns.id, path: { in: ["/plugin:resp INFO", "/plugin:resp PING"] } } })).toBe(0);
    const logged = await db().requestLog.findMany({ where: { mockId: "get-user" } });
    expect(logged[0]).toMatchObject({ method: "GET", body: ["user:1"] });
  });

  it("redis-cli (Debian's) gets the same answers", async () => {
    const cli = (...args: string[]) => promisify(execFile)("redis-cli", ["-h", "127.0.0.1", "-p", String(listener.port()), "--user", "cache-team", "--pass", "x", "--no-auth-warning", ...args]);
    expect((await cli("GET", "count")).stdout.trim()).toBe("42");
    expect((await cli("GET", "user:1")).stdout.trim()).toBe('{"name":"Ada","id":1}');
    expect((await cli("SET", "a", "b")).stdout.trim()).toBe("OK");
  });

  it("AUTH to a namespace that does not exist is refused; without AUTH the sandbox answers", async () => {
    const plain = redis();
    await plain.connect();
    await expect(plain.auth("no-such-team", "x")).rejects.toThrow(/WRONGPASS namespace 'no-such-team' does not exist/);
    await expect(plain.get("user:1")).rejects.toThrow(/in namespace 'sandbox'/);
  });

  it("a broken RESP frame ends the connection with a protocol error, and the listener keeps serving", async () => {
    const socket = net.connect(listener.port(), "127.0.0.1");
    let got = "";
    socket.on("data", (d) => (got += d));
    await new Promise((r) => socket.once("connect", r));
    socket.write("*1\r\n:5\r\n");
    await new Promise((r) => socket.once("close", r));
    expect(got).toMatch(/^-ERR Protocol error: expected '\$'/);
    const r = redis("cache-team");
    await r.connect();
    expect(await r.get("count")).toBe(42);
  });
});

describe("lines (plugin:line)", () => {
  it("AUTH <namespace> then JSON lines matched by event", async () => {
    const socket = net.connect(listener.port(), "127.0.0.1");
    let got = "";
    socket.on("data", (d) => (got += d));
    await new Promise((r) => socket.once("connect", r));
    socket.write('AUTH cache-team\n{"event":"order","data":{"id":9}}\n');
    await expect.poll(() => got, { timeout: 5000 }).toBe('OK\n{"accepted":9}\n');
    socket.destroy();
  });
});

describe("the listing and the listener", () => {
  it("GET /api/v1/plugin-protocols names each codec's serverName, the live state and the namespace's mocks; empty when not enabled", async () => {
    const off = await call(pluginRoute.GET, "/api/v1/plugin-protocols?namespace=cache-team", { cookie });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ enabled: false, protocols: [] });
    const health = await startHealthServer(0, () => [], () => ({ plugins: listener.state() }));
    process.env.SERVICE_UNIFIED_PORT = "1";
    process.env.PLUGIN_PORT = String(listener.port());
    process.env.RUNNER_HEALTH_PORT = String((health.address() as net.AddressInfo).port);
    resetEnvCache();
    try {
      const on = await call(pluginRoute.GET, "/api/v1/plugin-protocols?namespace=cache-team", { cookie });
      expect(on.status).toBe(200);
      expect(on.body.enabled).toBe(true);
      expect(on.body.protocols).toEqual([
        expect.objectContaining({ codec: "resp", serverName: "plugin:resp", port: listener.port(), state: "listening", mocks: 5 }),
        expect.objectContaining({ codec: "line", serverName: "plugin:line", port: listener.port(), state: "listening", mocks: 1 }),
      ]);
      const hidden = await call(pluginRoute.GET, "/api/v1/plugin-protocols?namespace=not-mine", { cookie });
      expect(hidden.status).toBe(404);
    } finally {
      await new Promise((r) => health.close(r));
      delete process.env.SERVICE_UNIFIED_PORT;
      delete process.env.PLUGIN_PORT;
      delete process.env.RUNNER_HEALTH_PORT;
      resetEnvCache();
    }
  });

  it("a port in use is the listener's error state, retried until free", async () => {
    const squatter = net.createServer();
    await new Promise<void>((r) => squatter.listen(0, "127.0.0.1", r));
    const port = (squatter.address() as net.AddressInfo).port;
    const late = await startPluginListener({ port, host: "127.0.0.1", retryMs: 100 });
    try {
      expect(late.state()).toMatchObject({ status: "error", error: `port ${port} is in use` });
      await new Promise((r) => squatter.close(r));
      await expect.poll(() => late.state().status, { timeout: 10_000 }).toBe("listening");
    } finally {
      await late.stop();
    }
  });
});
