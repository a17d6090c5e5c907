// The output-message skeleton the mock editor inserts: one placeholder per
// field in the payload's JSON form, and a skeleton the runner's own output
// check accepts (encoded with protobufjs after the same normalisation).
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { parseProtos } from "./proto-parse";
import { messageSkeleton, responseSkeleton } from "./message-skeleton";

const SHOP = `syntax = "proto3";
package shop;
import "google/protobuf/timestamp.proto";
enum Status { STATUS_UNKNOWN = 0; OPEN = 1; }
message Line { string sku = 1; uint32 qty = 2; }
message Order {
  string id = 1;
  int64 total_cents = 2;
  double weight = 3;
  bool paid = 4;
  bytes receipt = 5;
  Status status = 6;
  repeated Line lines = 7;
  repeated string tags = 8;
  map<string, int32> stock = 9;
  google.protobuf.Timestamp created_at = 10;
  oneof contact { string email = 11; string phone = 12; }
  optional string note = 13;
  Order parent = 14;
}
service Orders { rpc Get(Line) returns (Order); rpc Watch(Line) returns (stream Order); }
`;

const root = parseProtos([{ name: "shop.proto", content: SHOP }]);
const order = root.lookupType("shop.Order");

describe("messageSkeleton", () => {
  it.each([
    ["string", "id", ""],
    ["int64 as a string", "total_cents", "0"],
    ["double", "weight", 0],
    ["bool", "paid", false],
    ["bytes as base64 text", "receipt", ""],
    ["enum by its first name", "status", "STATUS_UNKNOWN"],
    ["repeated message: one element shows its shape", "lines", [{ sku: "", qty: 0 }]],
    ["repeated scalar: empty", "tags", []],
    ["map: empty", "stock", {}],
    ["well-known message type as its fields", "created_at", { seconds: "0", nanos: 0 }],
    ["first member of a oneof", "email", ""],
    ["proto3 optional", "note", ""],
    ["a message containing itself stops at the first recurrence", "parent", {}],
  ])("%s", (_, field, expected) => {
    expect(messageSkeleton(order)[field]).toEqual(expected);
  });

  it("leaves out the other members of a oneof", () => {
    expect(messageSkeleton(order)).not.toHaveProperty("phone");
  });

  it("keeps the .proto's field names and order", () => {
    expect(Object.keys(messageSkeleton(order))).toEqual(["id", "total_cents", "weight", "paid", "receipt", "status", "lines", "tags", "stock", "created_at", "email", "note", "parent"]);
  });

  it("is a message the output type accepts", () => {
    const plain = messageSkeleton(order);
    // The runner's encoder reads enums by name and 64-bit integers from strings; fromObject does the same.
    const message = order.fromObject(plain);
    expect(order.verify(message)).toBeNull();
    expect(() => order.encode(message).finish()).not.toThrow();
  });
});

describe("responseSkeleton", () => {
  const service = root.lookupService("shop.Orders");
  it.each([
    ["unary: one message", "Get", false],
    ["server streaming: a list of one message", "Watch", true],
  ])("%s", (_, method, listed) => {
    const m = service.methods[method]!;
    m.resolve();
    const skeleton = responseSkeleton(m.resolvedResponseType as protobuf.Type, Boolean(m.responseStream));
    expect(Array.isArray(skeleton)).toBe(listed);
  });
});
