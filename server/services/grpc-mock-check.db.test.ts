// gRPC mocks are checked against the namespace's uploaded .proto files at save
// time (create, batch, patch, copy): an unknown service, method or streaming kind is
// a 400 naming the field, and nothing is stored; without protos any name goes.
import { beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/v1/api-tester/import/grpc/route";
import * as mockRoute from "@/app/api/v1/mocks/[id]/route";
import * as batchRoute from "@/app/api/v1/mocks/batch/route";
import * as copyRoute from "@/app/api/v1/mocks/copy-to-namespace/route";
import * as mocksRoute from "@/app/api/v1/mocks/route";
import { db } from "@/server/db/client";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "grpc-checked";
const FREE = "grpc-free";
let cookie: string;

const PROTO = `syntax = "proto3";
package shop;
service Orders {
  rpc Get(Req) returns (Res);
  rpc Watch(Req) returns (stream Res);
}
message Req { string id = 1; }
message Res { string id = 1; string state = 2; }
`;

const save = (ns: string, body: unknown) => call(mocksRoute.POST, `/api/v1/mocks?namespace=${ns}`, { method: "POST", cookie, body });
const mockIds = (ns: string) => db().mock.findMany({ where: { namespace: { name: ns } }, select: { id: true }, orderBy: { id: "asc" } }).then((r) => r.map((m) => m.id));

beforeAll(async () => {
  const u = await makeUser({ namespaces: { [NS]: "owner", [FREE]: "owner" } });
  cookie = await sessionCookie(u.user.id);
  const res = await call(importRoute.POST, `/api/v1/api-tester/import/grpc?namespace=${NS}`, { method: "POST", cookie, body: { name: "shop/orders.proto", content: PROTO } });
  expect(res.status, res.text).toBe(200);
});

describe("saving a gRPC mock in a namespace with protos", () => {
  it("accepts a defined method, by full or simple service name", async () => {
    expect((await save(NS, { id: "g-full", grpc: { service: "shop.Orders", method: "Get" }, response: { payload: { id: "1" } } })).status).toBe(200);
    expect((await save(NS, { id: "g-simple", grpc: { service: "Orders", method: "Watch", methodType: "server-stream" }, response: { payload: [] } })).status).toBe(200);
    expect(await mockIds(NS)).toEqual(["g-full", "g-simple"]);
  });

  it("refuses an unknown service, method or streaming kind with 400 naming the field", async () => {
    const service = await save(NS, { id: "g-bad-1", grpc: { service: "shop.Payments", method: "Get" } });
    expect(service.status).toBe(400);
    expect(service.body).toMatchObject({ code: "validation", details: [{ field: "grpc.service" }] });
    expect(service.body.error).toContain("shop.Payments");
    const method = await save(NS, { id: "g-bad-2", grpc: { service: "shop.Orders", method: "Delete" } });
    expect(method.status).toBe(400);
    expect(method.body.details[0].field).toBe("grpc.method");
    const kind = await save(NS, { id: "g-bad-3", grpc: { service: "shop.Orders", method: "Get", methodType: "bidirectional" } });
    expect(kind.status).toBe(400);
    expect(kind.body.details[0].field).toBe("grpc.methodType");
    expect(await mockIds(NS)).toEqual(["g-full", "g-simple"]);
  });

  it("names the item in a batch, and refuses the whole batch", async () => {
    const res = await call(batchRoute.POST, `/api/v1/mocks/batch?namespace=${NS}`, {
      method: "POST",
      cookie,
      body: [
        { id: "b-ok", grpc: { service: "shop.Orders", method: "Get" } },
        { id: "b-bad", grpc: { service: "shop.Orders", method: "Nope" } },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe("1.grpc.method");
    expect(await mockIds(NS)).toEqual(["g-full", "g-simple"]);
  });

  it("checks a patch that changes the grpc block", async () => {
    const res = await call(mockRoute.PATCH, `/api/v1/mocks/g-full?namespace=${NS}`, { method: "PATCH", cookie, params: { id: "g-full" }, body: { grpc: { method: "Remove" } } });
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe("grpc.method");
    const row = await db().mock.findFirstOrThrow({ where: { id: "g-full", namespace: { name: NS } } });
    expect((row.definition as { grpc: { method: string } }).grpc.method).toBe("Get");
  });
});

it("a namespace without protos accepts any service and method; copying such a mock into one with protos is refused", async () => {
  expect((await save(FREE, { id: "g-any", grpc: { service: "whatever.Svc", method: "Anything" } })).status).toBe(200);
  expect(await mockIds(FREE)).toEqual(["g-any"]);
  const copy = await call(copyRoute.POST, "/api/v1/mocks/copy-to-namespace", { method: "POST", cookie, body: { mockIds: ["g-any"], sourceNamespace: FREE, targetNamespace: NS } });
  expect(copy.status).toBe(400);
  expect(copy.body.details[0].field).toBe("mockIds.0.grpc.service");
  expect(await mockIds(NS)).toEqual(["g-full", "g-simple"]);
});
