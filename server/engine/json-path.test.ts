import { describe, expect, it } from "vitest";
import { getPath, parsePath } from "./json-path";

const doc = { order: { id: 7, items: [{ id: "a1", tags: ["x"] }, { id: "b2" }], "odd.key": true, empty: null } };

describe("parsePath", () => {
  it.each([
    ["$.order.items[0].id", ["order", "items", 0, "id"]],
    ["order.items[0].id", ["order", "items", 0, "id"]],
    ["$.order['odd.key']", ["order", "odd.key"]],
    ['$["order"].id', ["order", "id"]],
    ["$", []],
    ["$.items[-1]", ["items", -1]],
  ])("%s", (path, segments) => expect(parsePath(path)).toEqual(segments));
});

describe("getPath", () => {
  it.each([
    ["$.order.id", true, 7],
    ["order.items[0].id", true, "a1"],
    ["$.order.items[1].id", true, "b2"],
    ["$.order.items[-1].id", true, "b2"],
    ["$.order.items.0.tags[0]", true, "x"],
    ["$.order['odd.key']", true, true],
    ["$.order.empty", true, null],
    ["$.order.missing", false, undefined],
    ["$.order.items[5].id", false, undefined],
    ["$.order.id.deeper", false, undefined],
    ["$.order.empty.x", false, undefined],
    ["$", true, doc],
  ])("%s → found %s", (path, found, value) => {
    expect(getPath(doc, path)).toEqual({ found, value });
  });

  it("does not read inherited properties", () => {
    expect(getPath({}, "constructor").found).toBe(false);
    expect(getPath({}, "__proto__").found).toBe(false);
  });
});
