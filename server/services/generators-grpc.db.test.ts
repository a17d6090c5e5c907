// The gRPC generator's routes against a real database and the real gRPC
// listener of the protocol runner: preview stores nothing; generating stores
// the .proto files and one mock per method in one transaction (so the gRPC
// mock check, already active in a namespace with another .proto, accepts
// them), and a @grpc/grpc-js client calling every method — unary, server-,
// client- and bidirectional streaming — gets the generated message(s); a
// second run changes nothing; a .proto that does not parse is a 400 naming
// the file, line and column.
import { readFileSync } from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/v1/api-tester/import/grpc/route";
import * as generateRoute from "@/app/api/v1/generators/grpc/route";
import * as previewRoute from "@/app/api/v1/generators/grpc/preview/route";
import { startGrpc, type GrpcListener } from "@/protocol-runner/grpc/server";
import { db } from "@/server/db/client";
import { logger } from "@/server/lib/logger";
import { invalidateAll } from "@/server/serving/mock-index";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { collectStream as collect } from "@/protocol-runner/testing";

useTestDatabase();
const NS = "gen-grpc";
const FIXTURES = path.join(__dirname, "../generators/__fixtures__");
const FILES = ["fleet/v1/tracker.proto", "fleet/v1/common.proto"].map((name) => ({ name, content: readFileSync(path.join(FIXTURES, name), "utf8") }));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let cookie: string;
let listener: GrpcListener | undefined;
let client: any;

const preview = (body: unknown) => call(previewRoute.POST, `/api/v1/generators/grpc/preview?namespace=${NS}`, { method: "POST", cookie, body });
const generate = (body: unknown) => call(generateRoute.POST, `/api/v1/generators/grpc?namespace=${NS}`, { method: "POST", cookie, body });
const storedMocks = () => db().mock.count({ where: { namespace: { name: NS }, deletedAt: null } });
const storedProtos = async () => (await db().grpcProto.findMany({ where: { namespace: { name: NS } }, orderBy: { name: "asc" }, select: { name: true } })).map((p) => p.name);

const meta = () => {
  const m = new grpc.Metadata();
  m.set("x-service-namespace", NS);
  return m;
};

beforeAll(async () => {
  const u = await makeUser({ namespaces: { [NS]: "owner" } });
  cookie = await sessionCookie(u.user.id);
  // Another service's .proto is already there: from now on the namespace's gRPC mocks must name a method its protos define.
  const other = 'syntax = "proto3";\npackage other;\nservice Echo { rpc Say(Msg) returns (Msg); }\nmessage Msg { string text = 1; }\n';
  const up = await call(importRoute.POST, `/api/v1/api-tester/import/grpc?namespace=${NS}`, { method: "POST", cookie, body: { name: "other/echo.proto", content: other } });
  expect(up.status, up.text).toBe(200);
});

afterAll(async () => {
  client?.close();
  await listener?.stop();
  invalidateAll();
});

describe("POST /api/v1/generators/grpc", () => {
  it("preview lists one new mock per method and stores neither mocks nor .proto files", async () => {
    const res = await preview({ document: { files: FILES } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 4, updated: 0, skipped: 0, warnings: [] });
    expect(res.body.mocks.map((m: { id: string; protocol: string; status: string }) => [m.id, m.protocol, m.status])).toEqual([
      ["grpc-fleet.v1.tracker-getvehicle", "grpc", "new"],
      ["grpc-fleet.v1.tracker-watchpositions", "grpc", "new"],
      ["grpc-fleet.v1.tracker-recordtrip", "grpc", "new"],
      ["grpc-fleet.v1.tracker-dispatch", "grpc", "new"],
    ]);
    expect(await storedMocks()).toBe(0);
    expect(await storedProtos()).toEqual(["other/echo.proto"]);
  });

  it("generates: stores the .proto files with the mocks, and every method answers its generated message(s) over gRPC", async () => {
    const res = await generate({ document: { files: FILES }, tags: ["fleet"] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 4, updated: 0, skipped: 0 });
    expect(await storedMocks()).toBe(4);
    expect(await storedProtos()).toEqual(["fleet/v1/common.proto", "fleet/v1/tracker.proto", "other/echo.proto"]);

    listener = await startGrpc({ port: 0, host: "127.0.0.1", log: logger(), listenForChanges: false });
    expect(listener.state()).toMatchObject({ status: "listening", methods: 5 });
    const def = protoLoader.loadSync("fleet/v1/tracker.proto", { includeDirs: [FIXTURES], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
    const Tracker = (grpc.loadPackageDefinition(def) as any).fleet.v1.Tracker;
    client = new Tracker(`127.0.0.1:${listener.port()}`, grpc.credentials.createInsecure());
    const now = Math.floor(Date.now() / 1000);

    // Unary.
    const vehicle = await new Promise<any>((resolve, reject) => client.GetVehicle({ vehicle_id: "v1" }, meta(), (err: grpc.ServiceError | null, res: any) => (err ? reject(err) : resolve(res))));
    expect(vehicle.id).toMatch(UUID);
    expect(vehicle).toMatchObject({ plate: "plate", status: "VEHICLE_STATUS_UNSPECIFIED", tags: ["tags"], attributes: { key: "attributes" }, owner: "company", photo: Buffer.from("photo") });
    expect(vehicle.driver.email).toMatch(/^\S+@\S+\.\S+$/);
    expect(vehicle.driver.name).toMatch(/\S+ \S+/);
    expect(Number(vehicle.odometer_km)).toBeGreaterThanOrEqual(0);
    expect(Math.abs(vehicle.last_position.latitude)).toBeLessThanOrEqual(90);
    expect(Math.abs(Number(vehicle.last_position.recorded_at.seconds) - now)).toBeLessThan(600);

    // Server streaming: three positions, each drawn afresh.
    const watched = await collect(client.WatchPositions({ vehicle_id: "v1" }, meta()));
    expect(watched.err).toBeUndefined();
    expect(watched.messages).toHaveLength(3);
    for (const p of watched.messages) expect(Math.abs(p.longitude)).toBeLessThanOrEqual(180);
    expect(new Set(watched.messages.map((p) => p.latitude)).size).toBeGreaterThan(1);

    // Client streaming: one summary once the client half-closes.
    const summary = await new Promise<any>((resolve, reject) => {
      const up = client.RecordTrip(meta(), (err: grpc.ServiceError | null, res: any) => (err ? reject(err) : resolve(res)));
      up.write({ latitude: 52.5, longitude: 13.4 });
      up.write({ latitude: 52.6, longitude: 13.5 });
      up.end();
    });
    expect(summary).toMatchObject({ elapsed: { seconds: "60", nanos: 0 } });
    expect(summary.stops).toHaveLength(1);
    expect(Number.isInteger(summary.point_count)).toBe(true);

    // Bidirectional: one event per command.
    const chat = client.Dispatch(meta());
    const events = collect(chat);
    chat.write({ vehicle_id: "v1" });
    chat.write({ vehicle_id: "v2" });
    chat.end();
    const { messages, err } = await events;
    expect(err).toBeUndefined();
    expect(messages).toHaveLength(2);
    for (const e of messages) {
      expect(e).toMatchObject({ kind: "KIND_UNSPECIFIED" });
      expect(e.vehicle_id).toMatch(UUID);
      expect(Object.keys(e.waypoints)).toEqual(["1"]);
    }
  });

  it("a second run on the same files changes nothing", async () => {
    const res = await generate({ document: { files: FILES }, tags: ["fleet"] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 0, updated: 0, skipped: 4, warnings: [] });
    const versions = await db().mock.findMany({ where: { namespace: { name: NS } }, select: { version: true } });
    expect(versions.every((v) => v.version === 1)).toBe(true);
  });

  it("preview warns when a stored .proto file would change", async () => {
    const changed = [FILES[0], { ...FILES[1], content: `${FILES[1].content}\nmessage Extra { string note = 1; }\n` }];
    const res = await preview({ document: { files: changed }, tags: ["fleet"] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.warnings).toEqual([{ message: "replaces the namespace's stored .proto file 'fleet/v1/common.proto'" }]);
    expect(res.body.skipped).toBe(4);
  });

  it("a .proto that does not parse is a 400 with the file, line and column, and stores nothing", async () => {
    const broken = FILES[1].content.replace("float speed_kmh = 3;", "float speed_kmh = ;");
    const line = broken.split("\n").findIndex((l) => l.includes("speed_kmh = ;")) + 1;
    const res = await generate({ document: { files: [FILES[0], { name: "fleet/v1/common.proto", content: broken }] }, idPrefix: "broken" });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ field: "document", file: "fleet/v1/common.proto", line, column: 21, pointer: "/files/1/content" });
    expect(await db().mock.count({ where: { id: { startsWith: "broken-" } } })).toBe(0);
    const stored = await db().grpcProto.findFirst({ where: { namespace: { name: NS }, name: "fleet/v1/common.proto" } });
    expect(stored?.content).toBe(FILES[1].content);
  });

  it("files that clash with the namespace's other .proto files are a 400 naming the clash", async () => {
    // The same messages again under another name: fleet.v1.Position would be defined twice.
    const res = await generate({ document: 'syntax = "proto3";\npackage fleet.v1;\nservice Other { rpc Get(Position) returns (Position); }\nmessage Position { string x = 1; }\n' });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ field: "document", file: "fleet.v1.proto" });
    expect(res.body.error).toMatch(/duplicate name 'Position'/);
    expect(await storedProtos()).not.toContain("fleet.v1.proto");
  });
});
