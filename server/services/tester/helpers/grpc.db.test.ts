// gRPC helpers through their route handlers against a real grpc-js server
// with @grpc/reflection: grpc/discover lists services and methods (types,
// streaming flags, input skeletons) over reflection v1, and v1alpha when the
// server has only that; proxy/grpc calls unary, server-, client- and
// bidirectional streaming methods typed by reflection or by a .proto file
// uploaded in the namespace, answers a non-OK status with its trailers as a
// result, refuses fields the message does not have, and obeys the outbound policy.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as discoverRoute from "@/app/api/v1/api-tester/grpc/discover/route";
import * as proxyGrpcRoute from "@/app/api/v1/proxy/grpc/route";
import { db } from "@/server/db/client";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "helpers-grpc";
const PROTO = `syntax = "proto3";
package shop;
import "google/protobuf/timestamp.proto";
service Orders {
  rpc Get(OrderReq) returns (Order);
  rpc Watch(OrderReq) returns (stream Order);
  rpc Upload(stream Order) returns (Summary);
  rpc Chat(stream OrderReq) returns (stream Order);
}
enum State { NEW = 0; PAID = 1; }
message OrderReq { string id = 1; }
message Order { string id = 1; State state = 2; int64 total = 3; repeated string tags = 4; google.protobuf.Timestamp placed_at = 5; }
message Summary { int32 count = 1; string first = 2; }
`;

let cookie: string;
const servers: grpc.Server[] = [];
let address = "";
let alphaAddress = "";
const seenMetadata: string[] = [];

async function startServer(onlyV1alpha: boolean): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "helpers-grpc-"));
  writeFileSync(path.join(dir, "shop.proto"), PROTO);
  const pkg = protoLoader.loadSync(path.join(dir, "shop.proto"), { keepCase: true, longs: String, enums: String, defaults: true, includeDirs: [dir] });
  const shop = (grpc.loadPackageDefinition(pkg).shop as grpc.GrpcObject).Orders as grpc.ServiceClientConstructor;
  const server = new grpc.Server();
  server.addService(shop.service, {
    Get: (c: grpc.ServerUnaryCall<{ id: string }, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      seenMetadata.push(String(c.metadata.get("x-tenant")[0] ?? ""));
      if (c.request.id === "none") {
        const trailer = new grpc.Metadata();
        trailer.set("x-reason", "no such order");
        return cb({ code: grpc.status.NOT_FOUND, details: "order none not found", metadata: trailer });
      }
      c.sendMetadata(Object.assign(new grpc.Metadata(), {}));
      cb(null, { id: c.request.id, state: "PAID", total: "9007199254740993", tags: ["a"], placed_at: { seconds: 1700000000, nanos: 0 } });
    },
    Watch: (c: grpc.ServerWritableStream<{ id: string }, unknown>) => {
      for (const state of ["NEW", "PAID", "PAID"]) c.write({ id: c.request.id, state });
      c.end();
    },
    Upload: (c: grpc.ServerReadableStream<{ id: string }, unknown>, cb: grpc.sendUnaryData<unknown>) => {
      const ids: string[] = [];
      c.on("data", (o: { id: string }) => ids.push(o.id));
      c.on("end", () => cb(null, { count: ids.length, first: ids[0] ?? "" }));
    },
    Chat: (c: grpc.ServerDuplexStream<{ id: string }, unknown>) => {
      c.on("data", (r: { id: string }) => c.write({ id: `re:${r.id}` }));
      c.on("end", () => c.end());
    },
  });
  new ReflectionService(pkg).addToServer(server);
  if (onlyV1alpha) server.unregister("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo");
  const port = await new Promise<number>((ok, fail) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? fail(err) : ok(p))));
  servers.push(server);
  return `127.0.0.1:${port}`;
}

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  cookie = await sessionCookie(o.user.id);
  address = await startServer(false);
  alphaAddress = await startServer(true);
});
afterAll(() => servers.forEach((s) => s.forceShutdown()));

const discover = (body: Record<string, unknown>) => call(discoverRoute.POST, "/api/v1/api-tester/grpc/discover", { method: "POST", cookie, body: { namespace: NS, ...body } });
const proxy = (body: Record<string, unknown>) => call(proxyGrpcRoute.POST, "/api/v1/proxy/grpc", { method: "POST", cookie, body: { namespace: NS, ...body } });

describe("POST /api/v1/api-tester/grpc/discover", () => {
  it("lists services and methods with types, streaming flags and input skeletons (reflection v1)", async () => {
    const res = await discover({ target: address });
    expect(res.status).toBe(200);
    expect(res.body.reflection).toBe("v1");
    expect(res.body.services.map((s: { name: string }) => s.name)).toEqual(["shop.Orders"]);
    const methods = res.body.services[0].methods;
    expect(methods.map((m: { name: string; kind: string }) => [m.name, m.kind])).toEqual([
      ["Get", "unary"],
      ["Watch", "server-stream"],
      ["Upload", "client-stream"],
      ["Chat", "bidirectional"],
    ]);
    expect(methods[0]).toMatchObject({ requestType: "shop.OrderReq", responseType: "shop.Order", requestStream: false, responseStream: false, inputSkeleton: { id: "" } });
    expect(methods[2].inputSkeleton).toEqual({ id: "", state: "NEW", total: "0", tags: [], placed_at: { seconds: "0", nanos: 0 } });
  });

  it("falls back to reflection v1alpha", async () => {
    const res = await discover({ target: alphaAddress });
    expect(res.status).toBe(200);
    expect(res.body.reflection).toBe("v1alpha");
    expect(res.body.services[0].methods).toHaveLength(4);
  });
});

describe("POST /api/v1/proxy/grpc", () => {
  it("calls a unary method typed by reflection, with metadata; 64-bit integers and enums come back as strings", async () => {
    const res = await proxy({ target: address, service: "shop.Orders", method: "Get", message: { id: "o-1" }, metadata: { "x-tenant": "acme" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, code: 0, codeName: "OK", kind: "unary", source: "reflection" });
    expect(res.body.responses).toEqual([{ id: "o-1", state: "PAID", total: "9007199254740993", tags: ["a"], placed_at: { seconds: "1700000000", nanos: 0 } }]);
    expect(seenMetadata.at(-1)).toBe("acme");
  });

  it("answers a non-OK status with details and trailers as a result", async () => {
    const res = await proxy({ target: address, service: "shop.Orders", method: "Get", message: { id: "none" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, code: 5, codeName: "NOT_FOUND", details: "order none not found", responses: [] });
    expect(res.body.trailers["x-reason"]).toBe("no such order");
  });

  it("streams: server-streaming answers every message; client and bidirectional streaming send the message list", async () => {
    const watch = await proxy({ target: address, service: "shop.Orders", method: "Watch", message: { id: "w" } });
    expect(watch.body.responses.map((r: { state: string }) => r.state)).toEqual(["NEW", "PAID", "PAID"]);
    const upload = await proxy({ target: address, service: "shop.Orders", method: "Upload", messages: [{ id: "a" }, { id: "b" }, { id: "c" }] });
    expect(upload.body).toMatchObject({ ok: true, kind: "client-stream", responses: [{ count: 3, first: "a" }] });
    const chat = await proxy({ target: address, service: "shop.Orders", method: "Chat", messages: [{ id: "x" }, { id: "y" }] });
    expect(chat.body.responses.map((r: { id: string }) => r.id)).toEqual(["re:x", "re:y"]);
  });

  it("types the call with a .proto uploaded in the namespace", async () => {
    const ns = await db().namespace.findUniqueOrThrow({ where: { name: NS } });
    const proto = await db().grpcProto.create({ data: { namespaceId: ns.id, name: "shop.proto", content: PROTO, services: [] } });
    const res = await proxy({ target: address, service: "shop.Orders", method: "Get", message: { id: "p" }, protoIds: [proto.id] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, source: "protos", responses: [{ id: "p", state: "PAID" }] });
    const unknown = await proxy({ target: address, service: "shop.Orders", method: "Get", message: {}, protoIds: ["00000000-0000-4000-8000-000000000000"] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].field).toBe("protoIds.0");
  });

  it("refuses unknown services, methods and fields with a 400 naming them", async () => {
    const svc = await proxy({ target: address, service: "shop.Nope", method: "Get" });
    expect(svc.status).toBe(400);
    expect(svc.body.details[0].field).toBe("service");
    const method = await proxy({ target: address, service: "shop.Orders", method: "Nope" });
    expect(method.body.details[0].field).toBe("method");
    const field = await proxy({ target: address, service: "shop.Orders", method: "Get", message: { idd: "x" } });
    expect(field.status).toBe(400);
    expect(field.body.details[0].field).toBe("message.idd");
  });

  it("obeys the outbound policy: cloud metadata always refused, private targets when OUTBOUND_ALLOW_PRIVATE=0", async () => {
    const meta = await proxy({ target: "169.254.169.254:50051", service: "shop.Orders", method: "Get" });
    expect(meta.status).toBe(400);
    expect(meta.body.details[0].field).toBe("target");
    expect((await discover({ target: "169.254.169.254:50051" })).status).toBe(400);
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    try {
      expect((await discover({ target: address })).status).toBe(400);
      const byName = await proxy({ target: `localhost:${address.split(":")[1]}`, service: "shop.Orders", method: "Get" });
      expect(byName.status).toBe(400);
      expect(byName.body.error).toContain("OUTBOUND_ALLOW_PRIVATE=0");
    } finally {
      delete process.env.OUTBOUND_ALLOW_PRIVATE;
    }
  });
});
