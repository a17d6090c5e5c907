// TCP and UDP mocks served by the protocol runner to real node:net and
// node:dgram clients: protocol servers created through the service (which
// NOTIFYs the running runner), each framing, greeting, condition choice,
// templated replies, unmatched capture, the request log, and a port in use.
import dgram from "node:dgram";
import { once } from "node:events";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as serverRoutes from "@/app/api/v1/protocol-servers/route";
import * as serverRoute from "@/app/api/v1/protocol-servers/[id]/route";
import * as webHealth from "@/app/health/route";
import { CreateProtocolServerInput } from "@/server/contracts/protocol-servers";
import { MockInput } from "@/server/contracts/mock";
import { db } from "@/server/db/client";
import { resetEnvCache } from "@/server/env";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { stubRecorder } from "@/server/serving/recorder";
import { saveMock } from "@/server/services/mocks";
import { resolveNamespace, type NamespaceScope } from "@/server/services/namespace-access";
import { adminDeleteNamespace, adminRestoreNamespace } from "@/server/services/namespaces";
import { createProtocolServer, deleteProtocolServer, getProtocolServer, testProtocolServer, updateProtocolServer } from "@/server/services/protocol-servers";
import { createMockFromUndefinedRequest } from "@/server/services/undefined-requests";
import { actorFor, call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { startHealthServer } from "../health-server";
import { startRunner, type Runner } from "../reconciler";
import { socketModule } from "./socket-module";
import { freePort, until } from "../testing";

useTestDatabase();

let runner: Runner;
let actor: ReturnType<typeof actorFor>;
let scope: NamespaceScope;
let cookie: string;
const open: { destroy(): void }[] = [];

beforeAll(async () => {
  const { user } = await makeUser();
  await makeNamespace("sock", { [user.id]: "owner" });
  actor = actorFor(user);
  scope = await resolveNamespace(actor, "sock");
  cookie = await sessionCookie(user.id);
  // Listeners in error are retried every 300 ms here (15 s by default).
  runner = await startRunner([socketModule("127.0.0.1")], { retryMs: 300 });
});

afterAll(async () => {
  for (const c of open) c.destroy();
  await runner?.stop();
  await stubRecorder().drain();
  await stopListening();
  invalidateAll();
});



/** Creates a protocol server through the service and waits for the runner to report it listening. */
async function server(input: Record<string, unknown>) {
  const created = await createProtocolServer(scope, CreateProtocolServerInput.parse({ host: "127.0.0.1", ...input }));
  await until(async () => (await getProtocolServer(scope, created.id)).state === "listening", `${created.name} listening`);
  return created;
}

const save = (input: unknown) => saveMock(actor, scope, MockInput.parse(input));

/** A TCP client whose received bytes queue up for the reads below. */
async function tcp(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  open.push(socket);
  let buffered: Buffer = Buffer.alloc(0);
  let wake: (() => void) | undefined;
  socket.on("data", (d: Buffer) => {
    buffered = Buffer.concat([buffered, d]);
    wake?.();
  });
  socket.on("end", () => wake?.());
  await once(socket, "connect");
  const waitFor = async (ready: () => number) => {
    for (let n = ready(); n < 0; n = ready()) {
      if (socket.readableEnded) throw new Error(`connection ended with ${buffered.toString()}`);
      await new Promise<void>((r) => (wake = r));
    }
    const n = ready();
    const out = buffered.subarray(0, n);
    buffered = buffered.subarray(n);
    return out;
  };
  return {
    socket,
    line: async () => (await waitFor(() => (buffered.indexOf(0x0a) < 0 ? -1 : buffered.indexOf(0x0a) + 1))).toString().trimEnd(),
    frame: async () => (await waitFor(() => (buffered.length >= 4 && buffered.length >= 4 + buffered.readUInt32BE(0) ? 4 + buffered.readUInt32BE(0) : -1))).subarray(4).toString(),
    /** Everything until the server ends the connection. */
    rest: async () => (await waitFor(() => (socket.readableEnded ? buffered.length : -1))).toString(),
  };
}

async function udpExchange(port: number, text: string, waitMs = 2000): Promise<string | undefined> {
  const client = dgram.createSocket("udp4");
  open.push({ destroy: () => client.close() });
  await new Promise<void>((r) => client.bind(0, "127.0.0.1", r));
  const reply = new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), waitMs);
    client.once("message", (m) => {
      clearTimeout(timer);
      resolve(m.toString());
    });
  });
  client.send(text, port, "127.0.0.1");
  return reply;
}

const lengthPrefixed = (text: string) => {
  const body = Buffer.from(text);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  return Buffer.concat([head, body]);
};

describe("TCP mocks", () => {
  it("newline framing: a connect mock greets, conditions on the JSON content choose the mock, replies are templated, plain text is a message too", async () => {
    const port = await freePort("tcp");
    await server({ name: "orders", protocol: "tcp", port, options: { framing: "newline" } });
    await save({ socket: { serverName: "orders", event: "connect" }, response: { payload: "220 orders ready" } });
    const book = await save({ socket: { serverName: "orders", event: "order", conditions: [{ path: "$.kind", assertAction: "equals", value: "book" }] }, response: { payload: { accepted: true, id: "$.req.id", shelf: "books" } } });
    await save({ socket: { serverName: "orders", event: "order" }, response: { payload: { accepted: false, id: "$.req.id" } } });
    await save({ socket: { serverName: "orders", event: "message", conditions: [{ path: "$", assertAction: "equals", value: "PING" }] }, response: { payload: "PONG" } });
    invalidateAll();

    const c = await tcp(port);
    expect(await c.line()).toBe("220 orders ready");
    // Two messages in one write, CRLF on the second: each is answered, in order.
    c.socket.write('{"event":"order","data":{"id":7,"kind":"book"}}\n{"event":"order","data":{"id":8,"kind":"lamp"}}\r\n');
    expect(JSON.parse(await c.line())).toEqual({ accepted: true, id: 7, shelf: "books" });
    expect(JSON.parse(await c.line())).toEqual({ accepted: false, id: 8 });
    // A message split over two writes.
    c.socket.write("PI");
    c.socket.write("NG\n");
    expect(await c.line()).toBe("PONG");

    await stubRecorder().drain();
    const logs = await db().requestLog.findMany({ where: { mockId: book.mock.id } });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ method: "order", url: "/orders", status: 200, body: { id: 7, kind: "book" } });
  });

  it("length-prefixed framing (4-byte big-endian): frames split and joined across writes, replies framed the same way", async () => {
    const port = await freePort("tcp");
    await server({ name: "ledger", protocol: "tcp", port, options: { framing: "length-prefixed" } });
    await save({ socket: { serverName: "ledger", conditions: [{ path: "$.op", assertAction: "equals", value: "balance" }] }, response: { payload: { balance: 42, account: "$.req.account" } } });
    await save({ socket: { serverName: "ledger" }, response: { payload: "unknown op" } });
    invalidateAll();

    const c = await tcp(port);
    const one = lengthPrefixed(JSON.stringify({ op: "balance", account: "A-1" }));
    const two = lengthPrefixed("hello\nwith a newline inside");
    c.socket.write(Buffer.concat([one, two.subarray(0, 3)]));
    c.socket.write(two.subarray(3));
    expect(JSON.parse(await c.frame())).toEqual({ balance: 42, account: "A-1" });
    expect(await c.frame()).toBe("unknown op");
  });

  it("raw framing: a message ends when the client is quiet for idleMs, or when it half-closes", async () => {
    const port = await freePort("tcp");
    await server({ name: "rawline", protocol: "tcp", port, options: { framing: "raw", idleMs: 30 } });
    await save({ socket: { serverName: "rawline", conditions: [{ path: "$", assertAction: "equals", value: "STATUS?" }] }, response: { payload: "ALL GOOD" } });
    invalidateAll();

    const c = await tcp(port);
    c.socket.write("STATUS?");
    c.socket.end();
    expect(await c.rest()).toBe("ALL GOOD");
  });

  it("an unmatched message gets no reply, is captured as an undefined tcp request, and becomes a mock", async () => {
    const port = await freePort("tcp");
    await server({ name: "quiet", protocol: "tcp", port });
    await save({ socket: { serverName: "quiet", event: "known" }, response: { payload: "known" } });
    invalidateAll();

    const c = await tcp(port);
    c.socket.write('{"event":"stranger","data":{"who":"me"}}\n{"event":"known"}\n');
    // Only the known event answers: the unmatched one before it sent nothing.
    expect(await c.line()).toBe("known");
    await stubRecorder().drain();
    const captured = await db().undefinedRequest.findMany({ where: { namespaceId: scope.id, protocol: "tcp" } });
    expect(captured).toHaveLength(1);
    expect(captured[0]).toMatchObject({ method: "MESSAGE", path: "/quiet stranger", body: { who: "me" } });
    await createMockFromUndefinedRequest(actor, scope, captured[0].id, { response: { payload: "now known" } });
    invalidateAll();
    c.socket.write('{"event":"stranger"}\n');
    expect(await c.line()).toBe("now known");
  });

  it("a mock saved while the runner runs is served after its NOTIFY, without restarting anything", async () => {
    const port = await freePort("udp");
    await server({ name: "late", protocol: "udp", port });
    expect(await udpExchange(port, "hi", 200)).toBeUndefined();
    // No invalidateAll here: only the NOTIFY of saveMock tells the runner's index.
    await save({ socket: { serverName: "late" }, response: { payload: "hello from a new mock" } });
    const reply = await until(() => udpExchange(port, "hi", 200), "the new mock's reply");
    expect(reply).toBe("hello from a new mock");
  });
});

describe("UDP mocks", () => {
  it("one datagram is one message: JSON conditions choose, the reply is rendered, misses are captured as udp", async () => {
    const port = await freePort("udp");
    await server({ name: "metrics", protocol: "udp", port });
    await save({ socket: { serverName: "metrics", event: "gauge", conditions: [{ path: "$.value", assertAction: "gt", value: 10 }] }, response: { payload: { alert: true, name: "$.req.name" } } });
    await save({ socket: { serverName: "metrics", event: "gauge" }, response: { payload: { alert: false } } });
    invalidateAll();

    expect(JSON.parse((await udpExchange(port, JSON.stringify({ event: "gauge", data: { name: "cpu", value: 99 } })))!)).toEqual({ alert: true, name: "cpu" });
    expect(JSON.parse((await udpExchange(port, JSON.stringify({ event: "gauge", data: { name: "cpu", value: 3 } })))!)).toEqual({ alert: false });
    expect(await udpExchange(port, "no mock for this", 300)).toBeUndefined();
    await stubRecorder().drain();
    const captured = await db().undefinedRequest.findMany({ where: { namespaceId: scope.id, protocol: "udp", path: { startsWith: "/metrics" } } });
    expect(captured).toEqual([expect.objectContaining({ method: "MESSAGE", path: "/metrics message", body: "no mock for this" })]);
  });
});

describe("listener lifecycle", () => {
  it("a listener whose port was taken comes up by itself once the port is free (timed retry, no change to its row)", async () => {
    const squatter = net.createServer();
    await new Promise<void>((r) => squatter.listen(0, "127.0.0.1", r));
    const port = (squatter.address() as AddressInfo).port;
    const later = await createProtocolServer(scope, CreateProtocolServerInput.parse({ name: "later", protocol: "tcp", host: "127.0.0.1", port }));
    await until(async () => (await getProtocolServer(scope, later.id)).state === "error", "the error state");
    await new Promise((r) => squatter.close(r));
    await until(async () => (await getProtocolServer(scope, later.id)).state === "listening", "listening after the retry");
    expect(await testProtocolServer(scope, later.id)).toMatchObject({ ok: true, state: "listening" });
    await deleteProtocolServer(scope, later.id);
  });

  it("a port in use is the server's error state, not a crash; a change restarts it; delete stops it; health lists every listener", async () => {
    const squatter = net.createServer();
    await new Promise<void>((r) => squatter.listen(0, "127.0.0.1", r));
    const port = (squatter.address() as AddressInfo).port;
    const taken = await createProtocolServer(scope, CreateProtocolServerInput.parse({ name: "taken", protocol: "tcp", host: "127.0.0.1", port }));
    const failed = await until(async () => {
      const v = await getProtocolServer(scope, taken.id);
      return v.state === "error" && v;
    }, "the error state");
    expect(failed.stateReason).toBe(`port ${port} is in use`);
    expect(runner.listeners()).toContainEqual(expect.objectContaining({ id: taken.id, state: "error", reason: `port ${port} is in use` }));

    // The runner still serves: the health endpoint answers with every listener.
    const health = await startHealthServer(0, runner.listeners);
    const healthPort = (health.address() as AddressInfo).port;
    const body = await (await fetch(`http://127.0.0.1:${healthPort}/health`)).json();
    expect(body.status).toBe("up");
    expect(body.listeners).toContainEqual(expect.objectContaining({ name: "taken", state: "error" }));
    // The web process's /health shows the runner and its listeners (checks.protocolRunner)…
    process.env.RUNNER_HEALTH_PORT = String(healthPort);
    resetEnvCache();
    const web = await call(webHealth.GET, "/health");
    expect(web.status).toBe(200);
    expect(web.body.checks.protocolRunner).toMatchObject({ status: "up", listeners: expect.arrayContaining([expect.objectContaining({ id: taken.id, state: "error", reason: `port ${port} is in use` })]) });
    await new Promise((r) => health.close(r));
    // …and stays up itself while the runner is away.
    const away = await call(webHealth.GET, "/health");
    expect(away.status).toBe(200);
    expect(away.body.checks.protocolRunner).toMatchObject({ status: "down", message: expect.stringMatching(/unreachable/) });
    delete process.env.RUNNER_HEALTH_PORT;
    resetEnvCache();

    // Freed and changed: the runner restarts it on the update's NOTIFY.
    await new Promise((r) => squatter.close(r));
    await updateProtocolServer(scope, taken.id, { options: { framing: "newline", idleMs: 50 } });
    await until(async () => (await getProtocolServer(scope, taken.id)).state === "listening", "listening after the change");
    expect(await testProtocolServer(scope, taken.id)).toMatchObject({ ok: true, state: "listening" });

    await deleteProtocolServer(scope, taken.id);
    await until(async () => !runner.listeners().some((l) => l.id === taken.id), "the listener gone");
    const refused = await new Promise<string>((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      s.once("connect", () => (s.destroy(), resolve("connected")));
      s.once("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error"));
    });
    expect(refused).toBe("ECONNREFUSED");
  });
});

describe("namespaces", () => {
  it("deleting a namespace closes its listeners; restoring it opens them again", async () => {
    const { user } = await makeUser({ role: "admin" });
    const admin = actorFor(user);
    await makeNamespace("short-lived", { [user.id]: "owner" });
    const other = await resolveNamespace(admin, "short-lived");
    const port = await freePort("udp");
    const created = await createProtocolServer(other, CreateProtocolServerInput.parse({ name: "brief", protocol: "udp", host: "127.0.0.1", port }));
    await until(async () => runner.listeners().some((l) => l.id === created.id && l.state === "listening"), "listening");
    await adminDeleteNamespace(admin, "short-lived");
    await until(async () => !runner.listeners().some((l) => l.id === created.id), "closed with its namespace");
    await until(async () => (await db().protocolServer.findUniqueOrThrow({ where: { id: created.id } })).state === "stopped", "its row stopped");
    await adminRestoreNamespace(admin, "short-lived");
    await until(async () => runner.listeners().some((l) => l.id === created.id && l.state === "listening"), "listening again");
  });
});

describe("protocol server records", () => {
  it("credentials are stored encrypted and never returned; an update must leave a complete server", async () => {
    const created = await createProtocolServer(scope, CreateProtocolServerInput.parse({ name: "mq", protocol: "rabbitmq", url: "amqp://mq.example.test:5672", credentials: { username: "svc", password: "s3cret-pass" } }));
    expect(created).toMatchObject({ hasCredentials: true, state: "stopped", port: null });
    expect(JSON.stringify(created)).not.toContain("s3cret-pass");
    const row = await db().protocolServer.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.credentialsEnc).toBeTruthy();
    expect(row.credentialsEnc).not.toContain("s3cret-pass");
    await expect(updateProtocolServer(scope, created.id, { protocol: "kafka" })).rejects.toMatchObject({ code: "validation", details: [expect.objectContaining({ field: "brokers" })] });
    const cleared = await updateProtocolServer(scope, created.id, { credentials: null });
    expect(cleared.hasCredentials).toBe(false);
    await expect(createProtocolServer(scope, CreateProtocolServerInput.parse({ name: "mq", protocol: "nats", url: "nats://n.example.test:4222" }))).rejects.toMatchObject({ code: "conflict" });
  });

  it("over REST: bad input is a 400 naming the field, a duplicate name 409, an unknown id 404; the list shows the state", async () => {
    const post = (body: unknown) => call(serverRoutes.POST, "/api/v1/protocol-servers?namespace=sock", { method: "POST", cookie, body });
    const missing = await post({ name: "no-port", protocol: "tcp" });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "validation", details: [expect.objectContaining({ location: "body", field: "port" })] });
    expect((await post({ name: "bad-framing", protocol: "tcp", port: 9, options: { framing: "xml" } })).body.details[0].field).toBe("options.framing");
    expect((await post({ name: "orders", protocol: "tcp", port: 9 })).status).toBe(409);
    const list = await call(serverRoutes.GET, "/api/v1/protocol-servers?namespace=sock", { cookie });
    expect(list.status).toBe(200);
    expect(list.body.servers).toContainEqual(expect.objectContaining({ name: "orders", state: "listening", stateReason: null }));
    const absent = "00000000-0000-4000-8000-000000000000";
    const gone = await call(serverRoute.GET, `/api/v1/protocol-servers/${absent}?namespace=sock`, { cookie, params: { id: absent } });
    expect(gone.status).toBe(404);
  });

  it("the contract refuses incomplete or mismatched servers, naming the field", () => {
    const problems = (input: unknown) => CreateProtocolServerInput.safeParse(input).error?.issues.map((i) => i.path.join("."));
    expect(problems({ name: "a", protocol: "tcp" })).toEqual(["port"]);
    expect(problems({ name: "a", protocol: "tcp", port: 70000 })).toEqual(["port"]);
    expect(problems({ name: "a", protocol: "tcp", port: 9000, options: { framing: "xml" } })).toEqual(["options.framing"]);
    expect(problems({ name: "a", protocol: "udp", port: 9000, options: { framing: "raw" } })).toEqual(["options"]);
    expect(problems({ name: "a", protocol: "kafka" })).toEqual(["brokers"]);
    expect(problems({ name: "a", protocol: "kafka", brokers: ["k:9092"], port: 1 })).toEqual(["port"]);
    expect(problems({ name: "a b", protocol: "nats", url: "nats://x:4222" })).toEqual(["name"]);
    expect(problems({ name: "a", protocol: "tcp", port: 9000, options: { framing: "raw", idleMs: 5 } })).toBeUndefined();
  });
});
