// Mock payloads against a method's output type: what fits is encoded (JSON
// names, named enums, 64-bit integers as strings), what does not is a
// MessageMismatch naming the field.
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { decodeMessage, encodeMessage, MessageMismatch } from "./messages";

const root = protobuf.parse(
  `syntax = "proto3";
package t;
enum Colour { RED = 0; GREEN = 1; }
message Item { string item_name = 1; Colour colour = 2; }
message Order { int64 total = 1; repeated Item items = 2; map<string, Item> by_key = 3; }
`,
  { keepCase: true },
).root;
const Order = root.lookupType("t.Order");

describe("encodeMessage", () => {
  it("accepts .proto and lowerCamel names, enum names and 64-bit integers as strings, and round-trips", () => {
    const bytes = encodeMessage(Order, { total: "9007199254740993", items: [{ itemName: "pen", colour: "GREEN" }], by_key: { a: { item_name: "ink" } } });
    expect(decodeMessage(Order, bytes)).toEqual({ total: "9007199254740993", items: [{ item_name: "pen", colour: "GREEN" }], by_key: { a: { item_name: "ink", colour: "RED" } } });
  });

  it.each([
    [{ total: 1, extra: true }, "t.Order has no field 'extra'"],
    [{ items: [{ colour: "BLUE" }] }, "response.items[0].colour: 'BLUE' is not a value of t.Colour"],
    [{ items: [{ item_name: 5 }] }, "item_name: string expected"],
    [{ items: "pen" }, "response.items: expected a list"],
    [[{ total: 1 }], "expected a t.Order object, got a list"],
  ])("refuses %j", (payload, message) => {
    expect(() => encodeMessage(Order, payload)).toThrow(MessageMismatch);
    expect(() => encodeMessage(Order, payload)).toThrow(message);
  });
});
