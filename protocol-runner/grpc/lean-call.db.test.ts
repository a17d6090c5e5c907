// The lean gRPC path (./lean-call.ts) against grpc-js's own handling of the
// same calls: the same bytes go to a listener with the lean path and to one
// without it (`lean: false`), from a raw node:http2 client, and the response
// headers, messages and trailers must be equal (Date aside). Also: the
// metadata a mock's request log records is the same on both paths, a
// compressed call stays grpc-js's, a deadline ends a delayed mock, a
// cancelled call does not disturb the next, and grpc-js's own client goes
// through the lean path (grpc.db.test.ts covers its round trips).
import http2 from "node:http2";
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/v1/api-tester/import/grpc/route";
import * as mocksRoute from "@/app/api/v1/mocks/route";
import { db } from "@/server/db/client";
import { logger } from "@/server/lib/logger";
import { stubRecorder } from "@/server/serving/recorder";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { startGrpc, type GrpcListener } from "./server";

useTestDatabase();

const NS = "lean";
const PROTO = `syntax = "proto3";
package shop;
service Orders {
  rpc Get(OrderReq) returns (Order);
  rpc Watch(OrderReq) returns (stream Order);
  rpc Chat(stream OrderReq) returns (stream Order);
}
message OrderReq { string id = 1; int32 n = 2; }
message Order { string id = 1; string state = 2; int64 total = 3; }
`;
const root = protobuf.parse(PROTO).root;
const OrderReq = root.lookupType("shop.OrderReq");
const Order = root.lookupType("shop.Order");

let lean: GrpcListener;
let plain: GrpcListener;

function frame(message: Uint8Array, flag = 0): Buffer {
  const out = Buffer.alloc(5 + message.length);
  out[0] = flag;
  out.writeUInt32BE(message.length, 1);
  Buffer.from(message).copy(out, 5);
  return out;
}
const request = (fields: Record<string, unknown>) => frame(OrderReq.encode(fields).finish());

interface RawAnswer {
  headers: Record<string, unknown>;
  data: string;
  trailers: Record<string, unknown>;
}

/** One call from node:http2 with exactly these headers and body bytes; `cancelAfterMs` resets the stream. */
function rawCall(port: number, path: string, body: Buffer, headers: Record<string, string | string[]> = {}, cancelAfterMs?: number, pieceBytes?: number): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on("error", reject);
    const req = session.request({ ":method": "POST", ":path": path, "content-type": "application/grpc", te: "trailers", "x-service-namespace": NS, ...headers });
    const out: RawAnswer = { headers: {}, data: "", trailers: {} };
    const data: Buffer[] = [];
    req.on("response", (h) => (out.headers = h));
    req.on("trailers", (t) => (out.trailers = t));
    req.on("data", (d: Buffer) => data.push(d));
    req.on("error", () => {});
    req.on("close", () => {
      session.close();
      out.data = Buffer.concat(data).toString("hex");
      delete out.headers.date;
      resolve(out);
    });
    if (pieceBytes) {
      // Separate DATA frames: each piece waits for the one before to be flushed.
      const pieces: Buffer[] = [];
      for (let i = 0; i < body.length; i += pieceBytes) pieces.push(body.subarray(i, i + pieceBytes));
      const next = () => {
        const piece = pieces.shift();
        if (piece === undefined) req.end();
        else req.write(piece, () => setImmediate(next));
      };
      next();
    } else req.end(body);
    if (cancelAfterMs !== undefined) setTimeout(() => req.close(http2.constants.NGHTTP2_CANCEL), cancelAfterMs);
  });
}

/** The same call on both listeners. */
async function both(path: string, body: Buffer, headers: Record<string, string | string[]> = {}, pieceBytes?: number) {
  const viaLean = await rawCall(lean.port(), path, body, headers, undefined, pieceBytes);
  const viaGrpcJs = await rawCall(plain.port(), path, body, headers, undefined, pieceBytes);
  return { viaLean, viaGrpcJs };
}

beforeAll(async () => {
  const u = await makeUser({ namespaces: { [NS]: "owner", other: "owner" } });
  const cookie = await sessionCookie(u.user.id);
  const up = await call(importRoute.POST, `/api/v1/api-tester/import/grpc?namespace=${NS}`, { method: "POST", cookie, body: { name: "shop/orders.proto", content: PROTO } });
  expect(up.status, up.text).toBe(200);
  const save = async (body: unknown) => {
    const res = await call(mocksRoute.POST, `/api/v1/mocks?namespace=${NS}`, { method: "POST", cookie, body });
    expect(res.status, res.text).toBe(200);
  };
  await save({ id: "vip", priority: 2, grpc: { service: "shop.Orders", method: "Get", conditions: [{ path: "$.id", assertAction: "equals", value: "A1" }], meta: [{ path: "x-tier", assertAction: "equals", value: "gold" }] }, response: { payload: { id: "$.req.id", state: "vip", total: "42" } } });
  await save({ id: "any", priority: 1, grpc: { service: "shop.Orders", method: "Get", conditions: [{ path: "$.id", assertAction: "equals", value: "A1" }] }, response: { payload: { id: "$.req.id", state: "open" } } });
  await save({ id: "static", grpc: { service: "shop.Orders", method: "Get", conditions: [{ path: "$.id", assertAction: "equals", value: "S" }] }, response: { payload: { id: "S", state: "fixed", total: "7" } } });
  await save({ id: "empty", grpc: { service: "shop.Orders", method: "Get", conditions: [{ path: "$.id", assertAction: "equals", value: "E" }] }, response: { payload: {} } });
  await save({ id: "denied", grpc: { service: "shop.Orders", method: "Get", conditions: [{ path: "$.id", assertAction: "equals", value: "X9" }] }, response: { statusCode: 7, error: "not yours: ünïcode %", errorDetails: [{ type: "errorInfo", details: { reason: "OWNER_MISMATCH", domain: "shop.example" } }] } });
  await save({ id: "misfit", grpc: { service: "shop.Orders", method: "Get", conditions: [{ path: "$.id", assertAction: "equals", value: "BAD" }] }, response: { payload: { id: "BAD", colour: "red" } } });
  await save({ id: "slow", grpc: { service: "shop.Orders", method: "Get", conditions: [{ path: "$.id", assertAction: "equals", value: "SLOW" }] }, response: { delay: 400, payload: { id: "SLOW", state: "late" } } });
  await save({ id: "meta-log", grpc: { service: "shop.Orders", method: "Get", conditions: [{ path: "$.id", assertAction: "equals", value: "M" }] }, response: { payload: { id: "M" } } });
  await save({ id: "watch", grpc: { service: "shop.Orders", method: "Watch" }, response: { streamDelayMs: 3, payload: [{ id: "$.req.id", state: "placed" }, { id: "$.req.id", state: "packed" }, { id: "$.req.id", state: "shipped" }] } });
  await save({ id: "watch-fail", priority: 1, grpc: { service: "shop.Orders", method: "Watch", conditions: [{ path: "$.id", assertAction: "equals", value: "F" }] }, response: { statusCode: 14, error: "gone" } });
  lean = await startGrpc({ port: 0, host: "127.0.0.1", log: logger(), listenForChanges: false });
  plain = await startGrpc({ port: 0, host: "127.0.0.1", log: logger(), listenForChanges: false, lean: false });
  // Each side is what it is meant to be (the lean path would quietly step aside if grpc-js's internals changed).
  expect(lean.state().wire).toBe("lean");
  expect(plain.state().wire).toBe("grpc-js");
});

afterAll(async () => {
  await lean?.stop();
  await plain?.stop();
});

describe("the lean gRPC path answers as grpc-js does", () => {
  const GET = "/shop.Orders/Get";
  const WATCH = "/shop.Orders/Watch";
  const oversized = Buffer.alloc(5);
  oversized.writeUInt32BE(5 * 1024 * 1024, 1);
  const cases: [string, string, Buffer, Record<string, string | string[]>?][] = [
    ["a templated answer chosen by a metadata condition", GET, request({ id: "A1" }), { "x-tier": "gold" }],
    ["the same request without the metadata", GET, request({ id: "A1" })],
    ["a static payload", GET, request({ id: "S" })],
    ["an empty payload (a zero-length message)", GET, request({ id: "E" })],
    ["an error status with rich details (trailers-only)", GET, request({ id: "X9" })],
    ["a payload that does not fit the output type", GET, request({ id: "BAD" })],
    ["no mock matches (nearest mocks in the message)", GET, request({ id: "nope" })],
    ["a namespace whose protos lack the method", GET, request({ id: "A1" }), { "x-service-namespace": "other" }],
    ["bytes that are not an OrderReq", GET, frame(Buffer.from([0x0a, 0xff, 0xff]))],
    ["no request message", GET, Buffer.alloc(0)],
    ["a partial message", GET, request({ id: "A1" }).subarray(0, 6)],
    ["two request messages", GET, Buffer.concat([request({ id: "A1" }), request({ id: "S" })])],
    ["a message and a partial second one", GET, Buffer.concat([request({ id: "S" }), request({ id: "A1" }).subarray(0, 4)])],
    ["a message larger than the receive limit", GET, oversized],
    ["the compressed flag under the identity encoding", GET, frame(OrderReq.encode({ id: "S" }).finish(), 1)],
    ["an invalid grpc-timeout", GET, request({ id: "S" }), { "grpc-timeout": "soon" }],
    ["a deadline shorter than the mock's delay", GET, request({ id: "SLOW" }), { "grpc-timeout": "100m" }],
    ["a deadline longer than the answer takes", GET, request({ id: "S" }), { "grpc-timeout": "5S" }],
    ["server streaming, three messages with gaps", WATCH, request({ id: "w1" })],
    ["server streaming that fails before its first message", WATCH, request({ id: "F" })],
    ["server streaming without a request message", WATCH, Buffer.alloc(0)],
    ["content-type application/grpc+proto", GET, request({ id: "S" }), { "content-type": "application/grpc+proto" }],
  ];
  it.each(cases)("%s", async (_name, path, body, headers) => {
    const { viaLean, viaGrpcJs } = await both(path, body, headers);
    expect(viaLean).toEqual(viaGrpcJs);
    expect(viaLean.headers[":status"]).toBe(200);
  });

  it.each([
    ["a message sent in 3-byte writes", request({ id: "A1" }), 3],
    ["two messages sent in 4-byte writes", Buffer.concat([request({ id: "S" }), request({ id: "A1" })]), 4],
    ["a 1 MiB message in 16 KiB writes", request({ id: "x".repeat(1 << 20) }), 16 * 1024],
    ["a 1 MiB second message in 16 KiB writes", Buffer.concat([request({ id: "S" }), request({ id: "y".repeat(1 << 20) })]), 16 * 1024],
  ] as const)("%s", async (_name, body, pieceBytes) => {
    const { viaLean, viaGrpcJs } = await both(GET, body, {}, pieceBytes);
    expect(viaLean).toEqual(viaGrpcJs);
  });

  it("decodes the answers it sends (not only the same bytes on both sides)", async () => {
    const vip = await rawCall(lean.port(), GET, request({ id: "A1" }), { "x-tier": "gold" });
    expect(vip.trailers).toMatchObject({ "grpc-status": "0", "grpc-message": "OK" });
    expect(Order.toObject(Order.decode(Buffer.from(vip.data, "hex").subarray(5)), { longs: String })).toEqual({ id: "A1", state: "vip", total: "42" });
    const late = await rawCall(lean.port(), GET, request({ id: "SLOW" }), { "grpc-timeout": "100m" });
    expect(late.headers).toMatchObject({ "grpc-status": "4", "grpc-message": "Deadline%20exceeded" });
    const many = await rawCall(lean.port(), GET, Buffer.concat([request({ id: "A1" }), request({ id: "S" })]));
    expect(many.headers["grpc-status"]).toBe("12");
  });

  it("records the metadata a mock sees as grpc-js hands it (binary values, repeated and comma-separated ones, dropped transport headers)", async () => {
    const headers = {
      "x-tier": "silver",
      "x-list": ["a", "b"],
      "x-trace-bin": "AQID,BAUG",
      "x-odd-bin": "AQ",
      "grpc-accept-encoding": "identity",
      "accept-encoding": "gzip",
      "user-agent": "raw-http2/1.0",
    };
    await rawCall(lean.port(), GET, request({ id: "M", n: 1 }), { ...headers, "x-path": "lean" });
    await rawCall(plain.port(), GET, request({ id: "M", n: 2 }), { ...headers, "x-path": "grpc-js" });
    await stubRecorder().flush();
    await stubRecorder().flush();
    const rows = await db().requestLog.findMany({ where: { mockId: "meta-log" } });
    const byPath = Object.fromEntries(rows.map((r) => [((r.headers as Record<string, string[]>)["x-path"] ?? [])[0], r]));
    const shown = (p: string) => {
      const h = { ...(byPath[p].headers as Record<string, string[]>) };
      delete h["x-path"];
      return h;
    };
    expect(shown("lean")).toEqual(shown("grpc-js"));
    expect(shown("lean")).toMatchObject({ "x-tier": ["silver"], "x-trace-bin": ["AQID", "BAUG"], "x-odd-bin": ["AQ=="], "user-agent": ["raw-http2/1.0"] });
    expect(shown("lean")).not.toHaveProperty("grpc-accept-encoding");
    expect(byPath.lean.body).toEqual({ id: "M", n: 1 });
    expect(byPath["grpc-js"].body).toEqual({ id: "M", n: 2 });
  });
});

describe("calls the lean path leaves to grpc-js, and the client's side", () => {
  it("serves a call compressed with gzip through grpc-js", async () => {
    const client = new grpc.Client(`127.0.0.1:${lean.port()}`, grpc.credentials.createInsecure(), { "grpc.default_compression_algorithm": 2 });
    try {
      const meta = new grpc.Metadata();
      meta.set("x-service-namespace", NS);
      const res = await new Promise<Buffer>((resolve, reject) =>
        client.makeUnaryRequest("/shop.Orders/Get", (b: Buffer) => b, (b: Buffer) => b, Buffer.from(OrderReq.encode({ id: "S" }).finish()), meta, (err, r) => (err ? reject(err) : resolve(r!))),
      );
      expect(Order.toObject(Order.decode(res), { longs: String })).toEqual({ id: "S", state: "fixed", total: "7" });
    } finally {
      client.close();
    }
  });

  it("answers 415 to a content type grpc-js refuses", async () => {
    const res = await rawCall(lean.port(), "/shop.Orders/Get", request({ id: "S" }), { "content-type": "application/json" });
    expect(res.headers[":status"]).toBe(415);
  });

  it("a client that cancels a delayed call leaves the listener serving the next one, with no answer written to the cancelled stream", async () => {
    const cancelled = await rawCall(lean.port(), "/shop.Orders/Get", request({ id: "SLOW" }), {}, 50);
    expect(cancelled.data).toBe("");
    await new Promise((r) => setTimeout(r, 450));
    const next = await rawCall(lean.port(), "/shop.Orders/Get", request({ id: "S" }));
    expect(next.trailers).toMatchObject({ "grpc-status": "0" });
  });

  it("grpc-js's own client: unary with metadata, a deadline, and server streaming", async () => {
    const client = new grpc.Client(`127.0.0.1:${lean.port()}`, grpc.credentials.createInsecure());
    const meta = (pairs: Record<string, string> = {}) => {
      const m = new grpc.Metadata();
      m.set("x-service-namespace", NS);
      for (const [k, v] of Object.entries(pairs)) m.set(k, v);
      return m;
    };
    const unary = (id: string, m: grpc.Metadata, deadlineMs?: number) =>
      new Promise<{ err: grpc.ServiceError | null; res?: Buffer }>((resolve) =>
        client.makeUnaryRequest("/shop.Orders/Get", (b: Buffer) => b, (b: Buffer) => b, Buffer.from(OrderReq.encode({ id }).finish()), m, deadlineMs ? { deadline: Date.now() + deadlineMs } : {}, (err, res) => resolve({ err, res })),
      );
    try {
      const vip = await unary("A1", meta({ "x-tier": "gold" }));
      expect(vip.err).toBeNull();
      expect(Order.toObject(Order.decode(vip.res!), { longs: String })).toEqual({ id: "A1", state: "vip", total: "42" });
      const late = await unary("SLOW", meta(), 100);
      expect(late.err?.code).toBe(grpc.status.DEADLINE_EXCEEDED);
      const denied = await unary("X9", meta());
      expect(denied.err).toMatchObject({ code: grpc.status.PERMISSION_DENIED, details: "not yours: ünïcode %" });
      expect(denied.err!.metadata.get("grpc-status-details-bin")).toHaveLength(1);
      const states: string[] = [];
      await new Promise<void>((resolve, reject) => {
        const stream = client.makeServerStreamRequest("/shop.Orders/Watch", (b: Buffer) => b, (b: Buffer) => b, Buffer.from(OrderReq.encode({ id: "w2" }).finish()), meta());
        stream.on("data", (b: Buffer) => states.push(String(Order.toObject(Order.decode(b)).state)));
        stream.on("error", reject);
        stream.on("end", () => resolve());
      });
      expect(states).toEqual(["placed", "packed", "shipped"]);
    } finally {
      client.close();
    }
  });
});
