// The gRPC listener end to end with real clients (@grpc/grpc-js with
// @grpc/proto-loader, grpc-js-reflection-client): .proto and mocks saved
// through the API, then unary, server-, client- and bidirectional streaming
// calls, a metadata condition, an error status with rich details decoded
// from grpc-status-details-bin, a response that does not fit its type,
// unmatched calls captured as undefined requests, health and reflection.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { GrpcReflection } from "grpc-js-reflection-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/v1/api-tester/import/grpc/route";
import * as mocksRoute from "@/app/api/v1/mocks/route";
import * as createMockRoute from "@/app/api/v1/undefined-requests/[id]/create-mock/route";
import { db } from "@/server/db/client";
import { logger } from "@/server/lib/logger";
import { stubRecorder } from "@/server/serving/recorder";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { rpcTypes } from "./rich-status";
import { startGrpc, type GrpcListener } from "./server";
import { collectStream as collect } from "@/protocol-runner/testing";

useTestDatabase();

const NS = "rpc";
const PROTO = `syntax = "proto3";
package shop;
service Orders {
  rpc Get(OrderReq) returns (Order);
  rpc Watch(OrderReq) returns (stream Order);
  rpc Upload(stream Order) returns (Summary);
  rpc Chat(stream OrderReq) returns (stream Order);
}
message OrderReq { string id = 1; }
message Order { string id = 1; string state = 2; int64 total = 3; }
message Summary { int32 count = 1; string first = 2; }
`;

let cookie: string;
let listener: GrpcListener;
let client: any;
let address: string;

const save = async (body: unknown) => {
  const res = await call(mocksRoute.POST, `/api/v1/mocks?namespace=${NS}`, { method: "POST", cookie, body });
  expect(res.status, res.text).toBe(200);
};
// A flush already under way (the recorder's timer) may not hold the newest records: the second one does.
const written = async () => {
  await stubRecorder().flush();
  await stubRecorder().flush();
};
const md = (pairs: Record<string, string> = {}) => {
  const m = new grpc.Metadata();
  m.set("x-service-namespace", NS);
  for (const [k, v] of Object.entries(pairs)) m.set(k, v);
  return m;
};
const unary = (method: string, req: unknown, meta = md()) =>
  new Promise<{ err: grpc.ServiceError | null; res: any }>((resolve) => client[method](req, meta, (err: grpc.ServiceError | null, res: any) => resolve({ err, res })));

beforeAll(async () => {
  const u = await makeUser({ namespaces: { [NS]: "owner" } });
  cookie = await sessionCookie(u.user.id);
  const up = await call(importRoute.POST, `/api/v1/api-tester/import/grpc?namespace=${NS}`, { method: "POST", cookie, body: { name: "shop/orders.proto", content: PROTO } });
  expect(up.status, up.text).toBe(200);
  await save({ id: "get-vip", priority: 1, grpc: { service: "shop.Orders", method: "Get", conditions: [{ path: "$.id", assertAction: "equals", value: "A1" }], meta: [{ path: "x-tier", assertAction: "equals", value: "gold" }] }, response: { payload: { id: "$.req.id", state: "vip", total: "42" } } });
  await save({ id: "get-any", priority: 2, grpc: { service: "Orders", method: "Get", conditions: [{ path: "$.id", assertAction: "equals", value: "A1" }] }, response: { payload: { id: "$.req.id", state: "open" } } });
  await save({ id: "get-denied", grpc: { service: "shop.Orders", method: "Get", conditions: [{ path: "$.id", assertAction: "equals", value: "X9" }] }, response: { statusCode: 7, error: "not yours", errorDetails: [{ type: "errorInfo", details: { reason: "OWNER_MISMATCH", domain: "shop.example", metadata: { owner: "bob" } } }, { type: "badRequest", details: { fieldViolations: [{ field: "id", description: "belongs to someone else" }] } }] } });
  await save({ id: "get-misfit", grpc: { service: "shop.Orders", method: "Get", conditions: [{ path: "$.id", assertAction: "equals", value: "BAD" }] }, response: { payload: { id: "BAD", colour: "red" } } });
  await save({ id: "watch", serverName: "edge", grpc: { service: "shop.Orders", method: "Watch", methodType: "server-stream" }, response: { streamDelayMs: 5, payload: [{ id: "$.req.id", state: "placed" }, { id: "$.req.id", state: "packed" }, { id: "$.req.id", state: "shipped" }] } });
  await save({ id: "upload", grpc: { service: "shop.Orders", method: "Upload", methodType: "client-stream", conditions: [{ path: "$[0].id", assertAction: "equals", value: "u1" }] }, response: { payload: { count: 2, first: "$.req[0].id" } } });
  await save({ id: "chat", grpc: { service: "shop.Orders", method: "Chat", methodType: "bidirectional" }, response: { payload: [{ id: "$.req.id", state: "ack" }] } });

  listener = await startGrpc({ port: 0, host: "127.0.0.1", log: logger(), listenForChanges: false });
  expect(listener.state()).toMatchObject({ status: "listening", methods: 4 });
  address = `127.0.0.1:${listener.port()}`;
  const dir = mkdtempSync(path.join(tmpdir(), "grpc-client-"));
  writeFileSync(path.join(dir, "orders.proto"), PROTO);
  const def = protoLoader.loadSync("orders.proto", { includeDirs: [dir], keepCase: true, longs: String, defaults: true });
  const Orders = (grpc.loadPackageDefinition(def) as any).shop.Orders;
  client = new Orders(address, grpc.credentials.createInsecure());
});

describe("the listener", () => {
  it("picks up a .proto and mock saved while it runs (mocks_changed notification)", async () => {
    const live = await startGrpc({ port: 0, host: "127.0.0.1", log: logger() });
    try {
      const proto = 'syntax = "proto3";\npackage late;\nservice Echo { rpc Say(Msg) returns (Msg); }\nmessage Msg { string text = 1; }\n';
      const up = await call(importRoute.POST, `/api/v1/api-tester/import/grpc?namespace=${NS}`, { method: "POST", cookie, body: { name: "late/echo.proto", content: proto } });
      expect(up.status, up.text).toBe(200);
      await save({ id: "late-echo", grpc: { service: "late.Echo", method: "Say" }, response: { payload: { text: "echo $.req.text" } } });
      const echo = new grpc.Client(`127.0.0.1:${live.port()}`, grpc.credentials.createInsecure());
      const Msg = (await import("protobufjs")).default.parse(proto).root.lookupType("late.Msg");
      const say = () =>
        new Promise<{ err: grpc.ServiceError | null; res?: Buffer }>((resolve) =>
          echo.makeUnaryRequest("/late.Echo/Say", (b: Buffer) => b, (b: Buffer) => b, Buffer.from(Msg.encode({ text: "hi" }).finish()), md(), (err, res) => resolve({ err, res })),
        );
      let answer = await say();
      // The reload follows the notification; poll (bounded) instead of assuming how soon.
      for (let i = 0; i < 100 && answer.err; i++) {
        await new Promise((r) => setTimeout(r, 20));
        answer = await say();
      }
      echo.close();
      expect(answer.err).toBeNull();
      expect(Msg.toObject(Msg.decode(answer.res!))).toEqual({ text: "echo hi" });
    } finally {
      await live.stop();
    }
  });

  it("serves a method path that two namespaces define with different streaming (one unary, one server-streaming)", async () => {
    const other = await makeUser({ namespaces: { rpc2: "owner" } });
    const otherCookie = await sessionCookie(other.user.id);
    const streaming = PROTO.replace("rpc Get(OrderReq) returns (Order);", "rpc Get(OrderReq) returns (stream Order);");
    const up = await call(importRoute.POST, "/api/v1/api-tester/import/grpc?namespace=rpc2", { method: "POST", cookie: otherCookie, body: { name: "shop/orders.proto", content: streaming } });
    expect(up.status, up.text).toBe(200);
    const mock = await call(mocksRoute.POST, "/api/v1/mocks?namespace=rpc2", { method: "POST", cookie: otherCookie, body: { id: "get-stream", grpc: { service: "shop.Orders", method: "Get" }, response: { payload: [{ id: "s1" }, { id: "s2" }] } } });
    expect(mock.status, mock.text).toBe(200);
    const both = await startGrpc({ port: 0, host: "127.0.0.1", log: logger(), listenForChanges: false });
    const clientFor = (proto: string) => {
      const dir = mkdtempSync(path.join(tmpdir(), "grpc-client-"));
      writeFileSync(path.join(dir, "orders.proto"), proto);
      const def = protoLoader.loadSync("orders.proto", { includeDirs: [dir], keepCase: true, longs: String, defaults: true });
      return new (grpc.loadPackageDefinition(def) as any).shop.Orders(`127.0.0.1:${both.port()}`, grpc.credentials.createInsecure());
    };
    const streamingClient = clientFor(streaming);
    const unaryClient = clientFor(PROTO);
    try {
      const meta2 = new grpc.Metadata();
      meta2.set("x-service-namespace", "rpc2");
      const streamed = await collect(streamingClient.Get({ id: "x" }, meta2));
      expect(streamed.err).toBeUndefined();
      expect(streamed.messages.map((m) => m.id)).toEqual(["s1", "s2"]);
      const single = await new Promise<{ err: grpc.ServiceError | null; res: any }>((resolve) => unaryClient.Get({ id: "A1" }, md({ "x-tier": "gold" }), (err: grpc.ServiceError | null, res: any) => resolve({ err, res })));
      expect(single.err).toBeNull();
      expect(single.res).toMatchObject({ id: "A1", state: "vip" });
    } finally {
      streamingClient.close();
      unaryClient.close();
      await both.stop();
    }
  });

  it("a port in use is the listener's error state, not a crash", async () => {
    const busy = await startGrpc({ port: listener.port(), host: "127.0.0.1", log: logger(), listenForChanges: false });
    expect(busy.state()).toMatchObject({ status: "error", error: expect.stringMatching(/EADDRINUSE|address/i) });
    await busy.stop();
    const { err } = await unary("Get", { id: "A1" }, md({ "x-tier": "gold" }));
    expect(err).toBeNull();
  });

  it("a port that was in use is bound once it is free (timed retry)", async () => {
    const squatter = (await import("node:net")).createServer();
    await new Promise<void>((r) => squatter.listen(0, "127.0.0.1", r));
    const port = (squatter.address() as import("node:net").AddressInfo).port;
    const late = await startGrpc({ port, host: "127.0.0.1", log: logger(), listenForChanges: false, retryMs: 100 });
    try {
      expect(late.state().status).toBe("error");
      await new Promise((r) => squatter.close(r));
      await expect.poll(() => late.state().status, { timeout: 10_000 }).toBe("listening");
      expect(late.state().error).toBeUndefined();
    } finally {
      await late.stop();
    }
  });
});

afterAll(async () => {
  client?.close();
  await listener?.stop();
});

describe("gRPC mocks served to a grpc-js client", () => {
  it("unary: the request message and a metadata condition choose the mock; templates read the request", async () => {
    const gold = await unary("Get", { id: "A1" }, md({ "x-tier": "gold" }));
    expect(gold.err).toBeNull();
    expect(gold.res).toEqual({ id: "A1", state: "vip", total: "42" });
    const plain = await unary("Get", { id: "A1" }, md({ "x-tier": "silver" }));
    expect(plain.res).toEqual({ id: "A1", state: "open", total: "0" });
    await written();
    const logs = await db().requestLog.findMany({ where: { mockId: { in: ["get-vip", "get-any"] } } });
    expect([...new Set(logs.map((l) => l.mockId))].sort()).toEqual(["get-any", "get-vip"]);
  });

  it("server streaming: the payload list is sent message by message", async () => {
    const { messages, err } = await collect(client.Watch({ id: "o-7" }, md()));
    expect(err).toBeUndefined();
    expect(messages.map((m) => m.state)).toEqual(["placed", "packed", "shipped"]);
    expect(messages.every((m) => m.id === "o-7")).toBe(true);
  });

  it("client streaming: conditions see the list of messages", async () => {
    const res = await new Promise<{ err: grpc.ServiceError | null; res: any }>((resolve) => {
      const stream = client.Upload(md(), (err: grpc.ServiceError | null, r: any) => resolve({ err, res: r }));
      stream.write({ id: "u1", state: "new" });
      stream.write({ id: "u2", state: "new" });
      stream.end();
    });
    expect(res.err).toBeNull();
    expect(res.res).toEqual({ count: 2, first: "u1" });
  });

  it("bidirectional: each message is answered as it comes; the call ends with the client", async () => {
    const stream = client.Chat(md());
    const done = collect(stream);
    stream.write({ id: "c1" });
    stream.write({ id: "c2" });
    stream.end();
    const { messages, err } = await done;
    expect(err).toBeUndefined();
    expect(messages.map((m) => `${m.id}:${m.state}`)).toEqual(["c1:ack", "c2:ack"]);
  });

  it("a non-zero statusCode is the call's status with its message and google.rpc.Status details", async () => {
    const { err } = await unary("Get", { id: "X9" });
    expect(err?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(err?.details).toBe("not yours");
    const bin = err!.metadata.get("grpc-status-details-bin")[0] as Buffer;
    const types = rpcTypes();
    const status = types.lookupType("google.rpc.Status").decode(bin) as any;
    expect(status.code).toBe(7);
    expect(status.message).toBe("not yours");
    expect(status.details.map((d: any) => d.type_url)).toEqual(["type.googleapis.com/google.rpc.ErrorInfo", "type.googleapis.com/google.rpc.BadRequest"]);
    const info = types.lookupType("google.rpc.ErrorInfo").toObject(types.lookupType("google.rpc.ErrorInfo").decode(status.details[0].value));
    expect(info).toEqual({ reason: "OWNER_MISMATCH", domain: "shop.example", metadata: { owner: "bob" } });
    const bad = types.lookupType("google.rpc.BadRequest").toObject(types.lookupType("google.rpc.BadRequest").decode(status.details[1].value)) as any;
    expect(bad.fieldViolations[0]).toMatchObject({ field: "id", description: "belongs to someone else" });
  });

  it("a response that does not fit the output type is INTERNAL, and the request log says why", async () => {
    const { err } = await unary("Get", { id: "BAD" });
    expect(err?.code).toBe(grpc.status.INTERNAL);
    expect(err?.details).toContain("shop.Order has no field 'colour'");
    await written();
    const log = await db().requestLog.findFirstOrThrow({ where: { mockId: "get-misfit" } });
    expect(log.status).toBe(grpc.status.INTERNAL);
    expect(JSON.stringify(log.response)).toContain("has no field 'colour'");
  });

  it("an unmatched call is an undefined request (protocol grpc) answered UNIMPLEMENTED with the nearest mocks", async () => {
    const { err } = await unary("Get", { id: "nobody" });
    expect(err?.code).toBe(grpc.status.UNIMPLEMENTED);
    expect(err?.details).toContain("nearest mocks");
    expect(err?.details).toContain("get-");
    await written();
    const miss = await db().undefinedRequest.findFirstOrThrow({ where: { namespace: { name: NS }, protocol: "grpc", path: "/shop.Orders/Get" } });
    expect(miss.body).toEqual({ id: "nobody" });
    const created = await call(createMockRoute.POST, `/api/v1/undefined-requests/${miss.id}/create-mock?namespace=${NS}`, { method: "POST", cookie, params: { id: miss.id }, body: { id: "from-miss", response: { payload: { id: "$.req.id", state: "made" } } } });
    expect(created.status, created.text).toBe(200);
    const row = await db().mock.findFirstOrThrow({ where: { id: "from-miss", namespace: { name: NS } } });
    expect(row.definition).toMatchObject({ grpc: { service: "shop.Orders", method: "Get" } });
  });

  it("routes a call without namespace metadata to the namespace whose mock for the method has a serverName, else to the sandbox", async () => {
    const { messages, err } = await collect(client.Watch({ id: "n-1" }, new grpc.Metadata()));
    expect(err).toBeUndefined();
    expect(messages).toHaveLength(3);
    const other = await unary("Get", { id: "A1" }, new grpc.Metadata());
    expect(other.err?.code).toBe(grpc.status.UNIMPLEMENTED);
    expect(other.err?.details).toContain("'sandbox'");
  });

  it("captures a call to a method no uploaded .proto defines", async () => {
    const ghost = new grpc.Client(address, grpc.credentials.createInsecure());
    const err = await new Promise<grpc.ServiceError>((resolve) =>
      ghost.makeUnaryRequest("/ghost.Svc/Boo", (b: Buffer) => b, (b: Buffer) => b, Buffer.from([0x0a, 0x01, 0x78]), md(), (e) => resolve(e as grpc.ServiceError)),
    );
    ghost.close();
    expect(err.code).toBe(grpc.status.UNIMPLEMENTED);
    await written();
    const miss = await db().undefinedRequest.findFirstOrThrow({ where: { namespace: { name: NS }, protocol: "grpc", path: "/ghost.Svc/Boo" } });
    expect(miss.body).toEqual({ base64: "CgF4" });
  });

  it("serves the standard health service", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "grpc-health-"));
    writeFileSync(path.join(dir, "health.proto"), 'syntax = "proto3";\npackage grpc.health.v1;\nmessage HealthCheckRequest { string service = 1; }\nmessage HealthCheckResponse { enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; } ServingStatus status = 1; }\nservice Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); }\n');
    const Health = (grpc.loadPackageDefinition(protoLoader.loadSync("health.proto", { includeDirs: [dir], enums: String })) as any).grpc.health.v1.Health;
    const health = new Health(address, grpc.credentials.createInsecure());
    const check = (service: string) => new Promise<any>((resolve) => health.Check({ service }, (err: unknown, res: unknown) => resolve(err ?? res)));
    expect(await check("")).toEqual({ status: "SERVING" });
    expect(await check("shop.Orders")).toEqual({ status: "SERVING" });
    expect((await check("nope.Svc")).code).toBe(grpc.status.NOT_FOUND);
    health.close();
  });

  it("lists the services through server reflection, v1 and v1alpha", async () => {
    for (const version of ["v1", "v1alpha"]) {
      const reflection = new GrpcReflection(address, grpc.credentials.createInsecure(), {}, version);
      const services = await reflection.listServices();
      expect(services, version).toEqual(expect.arrayContaining(["shop.Orders", "grpc.health.v1.Health"]));
      const methods = await reflection.listMethods("shop.Orders");
      expect(methods.map((m) => m.name).sort(), version).toEqual(["Chat", "Get", "Upload", "Watch"]);
    }
  });
});
