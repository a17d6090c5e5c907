// The .proto upload, list, read and delete endpoints against a real database:
// imports resolve among the files and the well-known types, a file that does
// not parse is a 400 with its line and column, and nothing is half-written.
import { beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/v1/api-tester/import/grpc/route";
import * as protoRoute from "@/app/api/v1/grpc/protos/[id]/route";
import * as protosRoute from "@/app/api/v1/grpc/protos/route";
import { createCaller } from "@/server/api/root";
import type { TrpcContext } from "@/server/api/trpc";
import { db } from "@/server/db/client";
import { actorFor, call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "protos";
let cookie: string;
let owner: ReturnType<typeof actorFor>;
let stranger: ReturnType<typeof actorFor>;

const TYPES = `syntax = "proto3";
package acme;
import "google/protobuf/timestamp.proto";
message Hello { string name = 1; google.protobuf.Timestamp at = 2; }
`;
const GREETER = `syntax = "proto3";
package acme;
import "acme/types.proto";
import "google/protobuf/empty.proto";
service Greeter {
  rpc Say(Hello) returns (Hello);
  rpc Watch(google.protobuf.Empty) returns (stream Hello);
}
`;

const upload = (body: unknown) => call(importRoute.POST, `/api/v1/api-tester/import/grpc?namespace=${NS}`, { method: "POST", cookie, body });
const stored = () => db().grpcProto.findMany({ where: { namespace: { name: NS } }, orderBy: { name: "asc" } });

beforeAll(async () => {
  const u = await makeUser({ namespaces: { [NS]: "owner" } });
  cookie = await sessionCookie(u.user.id);
  owner = actorFor(u.user);
  stranger = actorFor((await makeUser()).user);
});

const caller = (actor: ReturnType<typeof actorFor>) => createCaller({ actor, authError: null, ip: "127.0.0.1", userAgent: null, requestId: "test" } satisfies TrpcContext);

describe("POST /api/v1/api-tester/import/grpc", () => {
  it("stores several files whose imports resolve among them and the well-known types, with their services", async () => {
    const res = await upload({ files: [{ name: "acme/greeter.proto", content: GREETER }, { name: "acme/types.proto", content: TYPES }] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.count).toBe(2);
    const rows = await stored();
    expect(rows.map((r) => r.name)).toEqual(["acme/greeter.proto", "acme/types.proto"]);
    expect(rows[0].content).toBe(GREETER);
    expect(rows[0].services).toEqual([
      {
        name: "acme.Greeter",
        file: "acme/greeter.proto",
        methods: [
          { name: "Say", requestType: "acme.Hello", responseType: "acme.Hello", requestStream: false, responseStream: false },
          { name: "Watch", requestType: "google.protobuf.Empty", responseType: "acme.Hello", requestStream: false, responseStream: true },
        ],
      },
    ]);
    expect(rows[1].services).toEqual([]);
  });

  it("accepts one file as {name, content}, resolving its imports against the files already stored, and replaces a file of the same name", async () => {
    const next = GREETER.replace("rpc Say(Hello) returns (Hello);", "rpc Say(Hello) returns (Hello);\n  rpc Chat(stream Hello) returns (stream Hello);");
    const res = await upload({ name: "acme/greeter.proto", content: next });
    expect(res.status, res.text).toBe(200);
    const rows = await stored();
    expect(rows).toHaveLength(2);
    const methods = (rows[0].services as { methods: { name: string; requestStream: boolean; responseStream: boolean }[] }[])[0].methods;
    expect(methods.find((m) => m.name === "Chat")).toMatchObject({ requestStream: true, responseStream: true });
  });

  it("answers a file that does not parse with 400 naming the file, line and column, and stores nothing", async () => {
    const before = await stored();
    const bad = `syntax = "proto3";\nmessage Broken {\n  string name = 1\n}\n`;
    const res = await upload({ files: [{ name: "ok/fine.proto", content: 'syntax = "proto3";\nmessage Fine {}\n' }, { name: "bad/broken.proto", content: bad }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation", request_id: expect.any(String) });
    expect(res.body.error).toContain("bad/broken.proto:4:1");
    expect(res.body.details).toEqual([expect.objectContaining({ field: "files.1.content", file: "bad/broken.proto", line: 4, column: 1 })]);
    expect(await stored()).toEqual(before);
  });

  it("reports the column of the offending token within its line", async () => {
    const res = await upload({ name: "bad/col.proto", content: `syntax = "proto3";\nmessage A { int32 x = 1 }\n` });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ field: "content", line: 2, column: 25 });
  });

  it("refuses an import that is neither uploaded nor well-known, a type that resolves to nothing, and malformed bodies", async () => {
    const missing = await upload({ name: "x/a.proto", content: `syntax = "proto3";\nimport "x/nowhere.proto";\n` });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('import "x/nowhere.proto"');
    const unresolved = await upload({ name: "x/b.proto", content: `syntax = "proto3";\nmessage B { Nope n = 1; }\n` });
    expect(unresolved.status).toBe(400);
    expect(unresolved.body.error).toContain("Nope");
    expect((await upload({ name: "x/c.proto" })).status).toBe(400);
    expect((await upload({ files: [{ name: "x/../d.proto", content: "" }] })).status).toBe(400);
    const twice = await upload({ files: [{ name: "x/e.proto", content: 'syntax = "proto3";' }, { name: "x/e.proto", content: 'syntax = "proto3";' }] });
    expect(twice.status).toBe(400);
    expect(twice.body.details[0].field).toBe("files.1.name");
    expect((await stored()).map((r) => r.name)).toEqual(["acme/greeter.proto", "acme/types.proto"]);
  });
});

describe("tRPC grpcProtos.methods (the mock editor's pickers)", () => {
  it("lists every method with its kind, types and a response skeleton of the output type", async () => {
    const { methods } = await caller(owner).grpcProtos.methods({ namespace: NS });
    const hello = { name: "", at: { seconds: "0", nanos: 0 } };
    // The greeter as replaced by the single-file upload above: it gained a bidirectional Chat.
    expect(methods).toEqual([
      { service: "acme.Greeter", method: "Chat", kind: "bidirectional", requestType: "acme.Hello", responseType: "acme.Hello", file: "acme/greeter.proto", responseSkeleton: [hello] },
      { service: "acme.Greeter", method: "Say", kind: "unary", requestType: "acme.Hello", responseType: "acme.Hello", file: "acme/greeter.proto", responseSkeleton: hello },
      { service: "acme.Greeter", method: "Watch", kind: "server-stream", requestType: "google.protobuf.Empty", responseType: "acme.Hello", file: "acme/greeter.proto", responseSkeleton: [hello] },
    ]);
  });

  it("is empty for a namespace without .proto files, and 404 for a namespace the caller cannot read", async () => {
    const u = await makeUser({ namespaces: { "protos-empty": "viewer" } });
    expect((await caller(actorFor(u.user)).grpcProtos.methods({ namespace: "protos-empty" })).methods).toEqual([]);
    await expect(caller(stranger).grpcProtos.methods({ namespace: NS })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("uploads through tRPC with the parser's file:line:column on a bad file", async () => {
    await expect(caller(owner).grpcProtos.upload({ namespace: NS, files: [{ name: "bad.proto", content: 'syntax = "proto3";\nmessage { }\n' }] })).rejects.toThrow(/bad\.proto:2:\d+/);
  });
});

describe("list, read and delete", () => {
  it("lists, reads one with its text, refuses to delete a file another imports (409), then deletes", async () => {
    const list = await call(protosRoute.GET, `/api/v1/grpc/protos?namespace=${NS}`, { cookie });
    expect(list.status).toBe(200);
    expect(list.body.protos.map((p: { name: string }) => p.name)).toEqual(["acme/greeter.proto", "acme/types.proto"]);
    const [greeter, types] = list.body.protos;
    const one = await call(protoRoute.GET, `/api/v1/grpc/protos/${types.id}?namespace=${NS}`, { cookie, params: { id: types.id } });
    expect(one.status).toBe(200);
    expect(one.body.content).toBe(TYPES);
    const refused = await call(protoRoute.DELETE, `/api/v1/grpc/protos/${types.id}?namespace=${NS}`, { method: "DELETE", cookie, params: { id: types.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.details).toEqual({ importers: ["acme/greeter.proto"] });
    for (const p of [greeter, types]) {
      const del = await call(protoRoute.DELETE, `/api/v1/grpc/protos/${p.id}?namespace=${NS}`, { method: "DELETE", cookie, params: { id: p.id } });
      expect(del.status, del.text).toBe(200);
    }
    expect(await stored()).toEqual([]);
    const gone = await call(protoRoute.GET, `/api/v1/grpc/protos/${types.id}?namespace=${NS}`, { cookie, params: { id: types.id } });
    expect(gone.status).toBe(404);
  });
});
