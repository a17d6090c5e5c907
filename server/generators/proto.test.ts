// The .proto → gRPC mocks mapping: one valid mock per method of the fleet
// fixture (two files, one importing the other, all four method kinds), replies
// built from the output type's fields that — once their $.fake placeholders
// are rendered — the runner's own encoder accepts, and .proto text that does
// not parse refused with its file, line and column.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { encodeMessage } from "@/protocol-runner/grpc/messages";
import { MockInput } from "@/server/contracts/mock";
import { compileTemplate, renderTemplate } from "@/server/engine/template";
import { MemoryStores, seededRandom } from "@/server/engine/testing";
import { parseProtos } from "@/server/grpc/proto-parse";
import { GeneratorInputError } from "./input-error";
import { protoToMocks, SERVER_STREAM_MESSAGES } from "./proto";
import { MAX_DEPTH } from "./proto-sample";

const fixture = (name: string) => readFileSync(path.join(__dirname, "__fixtures__", "fleet", "v1", name), "utf8");
const FILES = [
  { name: "fleet/v1/tracker.proto", content: fixture("tracker.proto") },
  { name: "fleet/v1/common.proto", content: fixture("common.proto") },
];
const root = parseProtos(FILES);
const payloadOf = (m: { mock: unknown }) => (m.mock as { response: { payload: any } }).response.payload;
const grpcOf = (m: { mock: unknown }) => (m.mock as { grpc: { service: string; method: string; methodType?: string } }).grpc;

/** Renders the placeholders as the engine does when serving. */
const rendered = (payload: unknown) =>
  renderTemplate(compileTemplate(payload), {
    request: { namespace: "n", method: "POST", path: "/", headers: {}, query: {}, body: {} },
    pathParams: {},
    namespace: "n",
    mockStore: {},
    stores: new MemoryStores(),
    clock: { now: () => Date.UTC(2026, 0, 1) },
    random: seededRandom(3),
  });

async function failure(document: unknown): Promise<GeneratorInputError> {
  const err = await protoToMocks(document).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(GeneratorInputError);
  return err as GeneratorInputError;
}

describe("protoToMocks", () => {
  it("one valid mock per method, of each streaming kind, with stable ids", async () => {
    const { mocks, warnings, protos } = await protoToMocks({ files: FILES });
    expect(warnings).toEqual([]);
    expect(protos).toEqual(FILES);
    expect(mocks.map((m) => [m.mock.id, grpcOf(m).methodType, m.summary])).toEqual([
      ["grpc-fleet.v1.tracker-getvehicle", "unary", "fleet.v1.Tracker/GetVehicle (unary) → fleet.v1.Vehicle"],
      ["grpc-fleet.v1.tracker-watchpositions", "server-stream", "fleet.v1.Tracker/WatchPositions (server-stream) → a stream of 3 fleet.v1.Position"],
      ["grpc-fleet.v1.tracker-recordtrip", "client-stream", "fleet.v1.Tracker/RecordTrip (client-stream) → fleet.v1.TripSummary"],
      ["grpc-fleet.v1.tracker-dispatch", "bidirectional", "fleet.v1.Tracker/Dispatch (bidirectional) → one fleet.v1.DispatchEvent per message"],
    ]);
    for (const m of mocks) {
      expect(MockInput.safeParse(m.mock).success, m.mock.id).toBe(true);
      expect(grpcOf(m)).toMatchObject({ service: "fleet.v1.Tracker" });
    }
    const again = await protoToMocks({ files: FILES }, { idPrefix: "fleet" });
    expect(again.mocks.map((m) => m.mock.id)).toEqual(mocks.map((m) => m.mock.id.replace(/^grpc-/, "fleet-")));
  });

  it("answers a message built from the output type's fields", async () => {
    const { mocks } = await protoToMocks({ files: FILES });
    const vehicle = payloadOf(mocks[0]);
    expect(vehicle).toMatchObject({
      id: "$.fake.UUID",
      plate: "plate",
      status: "VEHICLE_STATUS_UNSPECIFIED",
      driver: { id: "$.fake.UUID", name: "$.fake.FullName", email: "$.fake.Email", phone: "$.fake.Phone" },
      tags: ["tags"],
      odometer_km: "$.fake.Int",
      last_position: { latitude: "$.fake.Latitude", longitude: "$.fake.Longitude", speed_kmh: "$.fake.Float", recorded_at: { seconds: "$.fake.UnixTime", nanos: 0 } },
      attributes: { key: "attributes" },
      photo: Buffer.from("photo").toString("base64"),
      company: "$.fake.Company",
      seats: "$.fake.Int",
    });
    // Only the first member of a oneof is set.
    expect(vehicle).not.toHaveProperty("person");
    // A message containing itself stops where it recurs.
    expect(vehicle.convoy).toEqual([]);
    expect(payloadOf(mocks[2])).toMatchObject({ point_count: "$.fake.Int", distance_km: "$.fake.Float", elapsed: { seconds: 60, nanos: 0 }, stops: [{ latitude: "$.fake.Latitude" }] });
    expect(payloadOf(mocks[3])[0]).toMatchObject({ vehicle_id: "$.fake.UUID", kind: "KIND_UNSPECIFIED", message: "$.fake.Sentence", waypoints: { 1: { latitude: "$.fake.Latitude" } } });
  });

  it("a streamed reply is a list of messages: several for server streaming, one per incoming message for bidirectional", async () => {
    const { mocks } = await protoToMocks({ files: FILES });
    expect(payloadOf(mocks[1])).toHaveLength(SERVER_STREAM_MESSAGES);
    expect(payloadOf(mocks[3])).toHaveLength(1);
    expect(Array.isArray(payloadOf(mocks[0]))).toBe(false);
    expect(Array.isArray(payloadOf(mocks[2]))).toBe(false);
  });

  it("every reply, rendered, is a message the runner's encoder accepts for the method's output type", async () => {
    const { mocks } = await protoToMocks({ files: FILES });
    for (const m of mocks) {
      const method = root.lookupService("fleet.v1.Tracker").methods[grpcOf(m).method]!;
      method.resolve();
      const type = method.resolvedResponseType!;
      const value = rendered(payloadOf(m));
      const items = Array.isArray(value) ? value : [value];
      for (const item of items) {
        const bytes = encodeMessage(type, item);
        const back = type.toObject(type.decode(bytes), { enums: String, longs: String });
        expect(Object.keys(back).length, m.mock.id).toBeGreaterThan(2);
      }
    }
  });

  it("takes one .proto text, stored under its package's name, and fills the well-known types and maps of every key kind", async () => {
    const text = `syntax = "proto3";
package acme.shop;
import "google/protobuf/struct.proto";
import "google/protobuf/wrappers.proto";
service Shop { rpc Info(Empty) returns (Info); }
message Empty {}
message Info {
  google.protobuf.Struct extra = 1;
  google.protobuf.StringValue motto = 2;
  map<bool, string> flags = 3;
  map<int64, double> prices = 4;
  int32 age = 5;
  sint64 created_at = 6;
}
`;
    const { mocks, protos } = await protoToMocks(text, { tags: ["shop"], serverName: "edge" });
    expect(protos).toEqual([{ name: "acme.shop.proto", content: text }]);
    expect(mocks[0].mock).toMatchObject({ id: "grpc-acme.shop.shop-info", tags: ["shop"], serverName: "edge" });
    expect(payloadOf(mocks[0])).toEqual({ extra: { fields: { key: { stringValue: "value" } } }, motto: { value: "value" }, flags: { true: "flags" }, prices: { 1: "$.fake.Price" }, age: "$.fake.Age", created_at: "$.fake.UnixTime" });
    const type = parseProtos(protos!).lookupType("acme.shop.Info");
    expect(() => encodeMessage(type, rendered(payloadOf(mocks[0])))).not.toThrow();
  });

  it("nests messages to a bounded depth", async () => {
    const text = 'syntax = "proto3";\nservice S { rpc M(A) returns (A); }\nmessage A { B b = 1; string a = 2; }\nmessage B { C c = 1; }\nmessage C { D d = 1; }\nmessage D { E e = 1; repeated E es = 2; }\nmessage E { string e = 1; }\n';
    const { mocks } = await protoToMocks(text);
    expect(payloadOf(mocks[0])).toEqual({ b: { c: { d: { es: [] } } }, a: "a" });
    expect(MAX_DEPTH).toBe(4);
  });

  it("warns that pathPrefix does not apply", async () => {
    const { warnings } = await protoToMocks({ files: FILES }, { pathPrefix: "/v1" });
    expect(warnings).toEqual([{ message: expect.stringContaining("pathPrefix does not apply") }]);
  });
});

describe("documents that cannot be read", () => {
  it("a syntax error: the file, line and column", async () => {
    const broken = FILES[1].content.replace("double longitude = 2;", "double longitude = ;");
    const err = await failure({ files: [FILES[0], { ...FILES[1], content: broken }] });
    const line = broken.split("\n").findIndex((l) => l.includes("longitude = ;")) + 1;
    expect(err.location).toEqual({ file: "fleet/v1/common.proto", pointer: "/files/1/content", line, column: 22 });
    expect(err.message).toContain(`fleet/v1/common.proto:${line}:22`);
  });

  it("one text: the file it would be stored as, line and column", async () => {
    const err = await failure('syntax = "proto3";\npackage a;\nservice S { rpc M(X) returns X; }\n');
    expect(err.location).toMatchObject({ file: "a.proto", line: 3 });
    expect(err.location.column).toBeGreaterThan(1);
  });

  it.each([
    ["an import that is not given", { files: [FILES[0]] }, /import "fleet\/v1\/common.proto" is neither/, { file: "fleet/v1/tracker.proto", pointer: "/files/0/content" }],
    ["a type that resolves to nothing", 'syntax = "proto3";\nservice S { rpc M(Nope) returns (Nope); }\n', /Unresolved reference/, { file: "service.proto" }],
    ["no service", 'syntax = "proto3";\nmessage A { string a = 1; }\n', /define no service/, {}],
    ["a file given twice", { files: [FILES[1], FILES[1]] }, /given twice/, { pointer: "/files/1/name" }],
    ["a file name that is not an import path", { files: [{ name: "../x.proto", content: "" }] }, /without '\.\.'/, { pointer: "/files/0/name" }],
    ["another shape", { openapi: "3.0.0" }, /not \.proto files/, { pointer: "/files" }],
    ["empty text", "  \n", /empty/, {}],
  ])("%s", async (_, document, message, location) => {
    const err = await failure(document);
    expect(err.message).toMatch(message);
    expect(err.location).toMatchObject(location);
  });
});
