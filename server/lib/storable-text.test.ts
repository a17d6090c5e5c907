import { describe, expect, it } from "vitest";
import { unstorableText } from "./storable-text";

describe("unstorableText", () => {
  it.each([
    ["plain text", { a: "héllo 👋", b: ["x", 1, null, true] }, undefined],
    ["NUL in a value", { a: { b: "x\0y" } }, { field: "a.b", message: "contains U+0000" }],
    ["NUL in a key", { "k\0": 1 }, { field: "k\0", message: "contains U+0000" }],
    ["lone high surrogate", { list: ["ok", "\ud800"] }, { field: "list.1", message: "contains an unpaired UTF-16 surrogate" }],
    ["lone low surrogate", "\udc00x", { field: "", message: "contains an unpaired UTF-16 surrogate" }],
    ["reversed pair", { s: "\udc00\ud800" }, { field: "s", message: "contains an unpaired UTF-16 surrogate" }],
    ["a proper pair", { s: "\ud83d\udc4b" }, undefined],
  ])("%s", (_name, value, expected) => {
    const found = unstorableText(value);
    if (expected === undefined) expect(found).toBeUndefined();
    else expect(found).toMatchObject(expected);
  });
});
