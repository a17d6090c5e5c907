import { describe, expect, it } from "vitest";
import type { AssertAction } from "@/server/contracts/mock";
import type { Lookup } from "./json-path";
import { compileOperator, contains, deepEqual, equals, notEquals, type OperatorResult, scalarKey, takesValue, toNumber } from "./operators";
import { InvalidRegexError } from "./safe-regex";

/** Stands for a field the request does not have; prints as <absent> in test names. */
const ABSENT = { toJSON: () => "<absent>" };

function lookup(value: unknown): Lookup {
  return value === ABSENT ? { found: false, value: undefined } : { found: true, value };
}

function run(action: AssertAction, actual: unknown, expected: unknown): OperatorResult {
  return compileOperator(action, expected)(lookup(actual));
}

/** Every result: 0 when it passes, within (0, 1] when it fails. */
function expectVerdict(result: OperatorResult, pass: boolean) {
  expect(result.pass).toBe(pass);
  if (pass) expect(result.distance).toBe(0);
  else {
    expect(result.distance).toBeGreaterThan(0);
    expect(result.distance).toBeLessThanOrEqual(1);
  }
}

type Row = [actual: unknown, expected: unknown, pass: boolean];

function table(action: AssertAction, rows: Row[]) {
  describe(action, () => {
    it.each(rows)(`%j ${action} %j → %s`, (actual, expected, pass) => expectVerdict(run(action, actual, expected), pass));
  });
}

const order = { id: 7, customer: { name: "Ann", tier: "gold" }, items: [{ sku: "A", qty: 2 }, { sku: "B", qty: 1 }], tags: ["x", "y"] };

table("equals", [
  ["abc", "abc", true],
  ["abc", "abd", false],
  ["abc", "ABC", false],
  [5, 5, true],
  [5, 6, false],
  // Query and header values are text: a numeric string equals the number.
  ["5", 5, true],
  [5, "5", true],
  ["5.0", 5, true],
  ["5a", 5, false],
  ["", 0, false],
  ["0x10", 16, false],
  // Two strings compare as text.
  ["05", "5", false],
  ["true", true, true],
  [true, "true", true],
  [true, true, true],
  [true, false, false],
  [null, null, true],
  [null, "null", false],
  [null, 0, false],
  [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, true],
  [{ a: 1, b: { c: "5" } }, { a: 1, b: { c: 5 } }, true],
  [{ a: 1 }, { a: 1, b: 2 }, false],
  [{ a: 1, b: 2 }, { a: 1 }, false],
  [[1, 2, 3], [1, 2, 3], true],
  [[1, 2, 3], [3, 2, 1], false],
  [[1, 2], [1, 2, 3], false],
  [[], [], true],
  [{}, {}, true],
  [[], {}, false],
  ["[1]", [1], false],
  [ABSENT, "x", false],
  [ABSENT, null, false],
]);

table("not_equals", [
  ["abc", "abd", true],
  ["abc", "abc", false],
  ["5", 5, false],
  [{ a: 1 }, { a: 2 }, true],
  [{ a: 1, b: 2 }, { b: 2, a: 1 }, false],
  [null, "x", true],
  // Absent: "role not_equals admin" holds for a request without a role.
  [ABSENT, "admin", true],
]);

table("contains", [
  ["hello world", "lo wo", true],
  ["hello world", "", true],
  ["hello world", "World", false],
  // Numbers and booleans: exact equality, not digits inside digits.
  [100, 10, false],
  [100, 100, true],
  ["100", 10, false],
  ["100", 100, true],
  [100, "10", false],
  // Two strings: substring, even when they look numeric.
  ["100", "10", true],
  [true, true, true],
  [true, "true", true],
  [false, true, false],
  // Objects: recursive subset.
  [order, { customer: { tier: "gold" } }, true],
  [order, { customer: { tier: "silver" } }, false],
  [order, { id: 7, customer: {} }, true],
  [order, { missing: 1 }, false],
  [order, { items: [{ sku: "B" }] }, true],
  [order, { items: [{ sku: "C" }] }, false],
  [order, { customer: { name: "An" } }, false],
  [{ a: 1 }, {}, true],
  // Arrays: element presence; objects found by subset.
  [["x", "y"], "y", true],
  [["x", "y"], "z", false],
  [["xy"], "x", false],
  [[1, 2, 3], 2, true],
  [["1", "2"], 2, true],
  [order.items, { sku: "A" }, true],
  [order.items, { sku: "A", qty: 2 }, true],
  [order.items, { sku: "A", qty: 1 }, false],
  [order.items, { sku: "Z" }, false],
  [[[1, 2], [3]], [1, 2], true],
  // An expected array: all of its elements present, in any order.
  [["x", "y", "z"], ["z", "x"], true],
  [["x", "y"], ["x", "w"], false],
  [[], "x", false],
  [[], [], true],
  ["abc", { a: 1 }, false],
  [{ a: 1 }, "a", false],
  [null, null, true],
  [ABSENT, "x", false],
]);

table("not_contains", [
  ["hello", "xyz", true],
  ["hello", "ell", false],
  [100, 10, true],
  [["x", "y"], "x", false],
  [order, { customer: { tier: "silver" } }, true],
  [ABSENT, "x", true],
]);

const regexRows: Row[] = [
  ["order-123", "^order-\\d+$", true],
  ["order-abc", "^order-\\d+$", false],
  ["xx order-1 xx", "order-\\d", true],
  ["HELLO", "(?i)^hello$", true],
  ["HELLO", "^hello$", false],
  [42, "^4\\d$", true],
  [true, "^true$", true],
  [{ a: 1 }, '"a":1', true],
  [ABSENT, ".*", false],
];
table("matches", regexRows);
table("match", regexRows);

table("not_matches", [
  ["order-abc", "^order-\\d+$", true],
  ["order-123", "^order-\\d+$", false],
  [42, "^4", false],
  // The spec: an absent field matches not_matches.
  [ABSENT, "^order-\\d+$", true],
  [ABSENT, ".*", true],
]);

table("gt", [
  [5, 3, true],
  [3, 5, false],
  [5, 5, false],
  // Query parameters arrive as strings.
  ["10", "9", true],
  ["10", 9, true],
  ["9", "10", false],
  ["-1.5", -2, true],
  ["2e3", 1999, true],
  ["abc", 1, false],
  [5, "abc", false],
  [true, 0, false],
  [null, 0, false],
  ["", 0, false],
  [[5], 1, false],
  [ABSENT, 0, false],
]);

table("lt", [
  [3, 5, true],
  [5, 3, false],
  [5, 5, false],
  ["9", "10", true],
  [" 7 ", 8, true],
  ["abc", 1, false],
  [ABSENT, 100, false],
]);

table("gte", [
  [5, 5, true],
  ["5", 5, true],
  [6, "5", true],
  [4, 5, false],
  ["x", 5, false],
  [ABSENT, 0, false],
]);

table("lte", [
  [5, 5, true],
  ["5.0", "5", true],
  [4, 5, true],
  [6, 5, false],
  [5, null, false],
  [ABSENT, 0, false],
]);

table("any", [
  ["x", undefined, true],
  [null, undefined, true],
  [{}, undefined, true],
  [ABSENT, undefined, true],
]);

table("notEmpty", [
  ["x", undefined, true],
  [" ", undefined, true],
  [0, undefined, true],
  [false, undefined, true],
  [[0], undefined, true],
  [{ a: null }, undefined, true],
  ["", undefined, false],
  [null, undefined, false],
  [[], undefined, false],
  [{}, undefined, false],
  [ABSENT, undefined, false],
]);

table("empty", [
  ["", undefined, true],
  [null, undefined, true],
  [[], undefined, true],
  [{}, undefined, true],
  // Absent counts as empty: empty is exactly the negation of notEmpty.
  [ABSENT, undefined, true],
  [" ", undefined, false],
  [0, undefined, false],
  [false, undefined, false],
  [[null], undefined, false],
  [{ a: 1 }, undefined, false],
]);

describe("value is ignored where the spec says so", () => {
  it.each([
    ["any", false],
    ["notEmpty", false],
    ["empty", false],
    ["equals", true],
    ["not_matches", true],
  ] as const)("%s takes a value: %s", (action, takes) => expect(takesValue(action)).toBe(takes));

  it("notEmpty ignores a value it was given", () => expectVerdict(run("notEmpty", "x", "something else"), true));
});

describe("regex operators refuse unsafe patterns when compiled", () => {
  it.each(["matches", "match", "not_matches"] as const)("%s", (action) => {
    expect(() => compileOperator(action, "(a)\\1")).toThrow(InvalidRegexError);
  });
});

describe("distance: a near miss is closer than a far miss", () => {
  it.each([
    ["equals strings", "equals", "alice", "alicf", "zzzzz"],
    ["equals strings, one character inserted", "equals", "order-1234", "order-12345", "x"],
    ["equals numbers", "equals", 100, 101, 5],
    ["equals numeric text", "equals", 100, "101", "5"],
    ["equals objects", "equals", { a: 1, b: 2, c: 3 }, { a: 1, b: 2, c: 4 }, { a: 9, b: 9, c: 9 }],
    ["equals nested objects", "equals", { a: { b: "hello" } }, { a: { b: "hellp" } }, { a: "x" }],
    ["equals arrays", "equals", [1, 2, 3], [1, 2, 4], [7, 8]],
    ["contains strings", "contains", "world", "hello worlt", "hello"],
    ["contains objects", "contains", { a: 1, b: 2 }, { a: 1, b: 3 }, { c: 1, d: 2 }],
    ["contains array elements", "contains", { sku: "A", qty: 2 }, [{ sku: "A", qty: 3 }], [{ sku: "Z", qty: 9 }]],
    ["gt", "gt", 100, 99, 1],
    ["lte", "lte", 100, 101, 1000],
  ] as const)("%s", (_label, action, expected, near, far) => {
    // near and far are actual values; both fail, near by less.
    const nearResult = run(action, near, expected);
    const farResult = run(action, far, expected);
    expectVerdict(nearResult, false);
    expectVerdict(farResult, false);
    expect(nearResult.distance).toBeLessThan(farResult.distance);
  });

  it("an absent field is as far as it gets", () => {
    expect(run("equals", ABSENT, "x").distance).toBe(1);
    expect(run("contains", ABSENT, "x").distance).toBe(1);
  });

  it("a failing equality of numbers that differ only a little is still a miss", () => {
    expectVerdict(run("gt", 100, 100), false);
    expectVerdict(run("equals", 1_000_000, 1_000_000.0001), false);
  });
});

describe("helpers", () => {
  it.each([
    [5, 5],
    ["5", 5],
    [" -2.5 ", -2.5],
    ["1e3", 1000],
    [".5", 0.5],
    ["5.", 5],
    ["", undefined],
    ["0x10", undefined],
    ["Infinity", undefined],
    ["1e999", undefined],
    [Number.NaN, undefined],
    [true, undefined],
    [null, undefined],
  ])("toNumber(%j) = %j", (value, n) => expect(toNumber(value)).toBe(n));

  it.each([
    ["5", 5, true],
    ["5.0", 5, true],
    ["true", true, true],
    ["false", false, true],
    [null, null, true],
    ["a", "a", true],
    ["5", "6", false],
    ["true", "1", false],
    [null, "null", false],
    ["", null, false],
  ] as const)("scalarKey(%j) and scalarKey(%j) are equal: %s", (a, b, same) => {
    // Hashes built on this key must never separate values that equals joins.
    if (deepEqual(a, b)) expect(scalarKey(a)).toBe(scalarKey(b));
    expect(scalarKey(a) === scalarKey(b)).toBe(same);
  });

  it("deepEqual ignores key order and keeps array order", () => {
    expect(deepEqual({ a: [1, { b: 2, c: 3 }] }, { a: [1, { c: 3, b: 2 }] })).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
  });

  it("the exported functions agree with the compiled checks", () => {
    expect(equals(lookup("5"), 5)).toEqual(run("equals", "5", 5));
    expect(notEquals(lookup(ABSENT), 5)).toEqual(run("not_equals", ABSENT, 5));
    expect(contains(lookup([1, 2]), 2)).toEqual(run("contains", [1, 2], 2));
  });
});
