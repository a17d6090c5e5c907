import { describe, expect, it } from "vitest";
import type { Condition } from "@/server/contracts/mock";
import { type ConditionBlock, type ConditionDeps, compileConditions } from "./conditions";
import { InvalidRegexError } from "./safe-regex";
import type { EngineRequest } from "./types";

function request(parts: Partial<EngineRequest> = {}): EngineRequest {
  return { namespace: "sandbox", method: "POST", path: "/orders", headers: {}, query: {}, body: undefined, ...parts };
}

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

function verdict(block: ConditionBlock, req: EngineRequest, deps?: ConditionDeps) {
  return compileConditions(block, deps).evaluate(req);
}

const body = {
  order: { id: 7, status: "paid", total: "120.50", customer: { name: "Ann", tier: "gold" }, items: [{ sku: "A", qty: 2 }, { sku: "B", qty: 1 }], note: null },
};

describe("an empty block", () => {
  it.each([[{}], [{ conditions: [], queryParams: [], header: [] }], [{ sortArray: true }]])("%j passes with distance 0", (block) => {
    const compiled = compileConditions(block);
    expect(compiled.count).toBe(0);
    expect(compiled.evaluate(request({ body }))).toEqual({ pass: true, distance: 0, failures: [] });
  });
});

describe("body conditions", () => {
  it.each<[string, Condition, boolean]>([
    ["number equals", { path: "$.order.id", assertAction: "equals", value: 7 }, true],
    ["path without $.", { path: "order.status", assertAction: "equals", value: "paid" }, true],
    ["nested object subset", { path: "$.order", assertAction: "contains", value: { customer: { tier: "gold" } } }, true],
    ["array element presence with objects", { path: "$.order.items", assertAction: "contains", value: { sku: "B" } }, true],
    ["array element absent", { path: "$.order.items", assertAction: "contains", value: { sku: "C" } }, false],
    ["indexed element", { path: "$.order.items[1].qty", assertAction: "lt", value: 2 }, true],
    ["numeric text in the body", { path: "$.order.total", assertAction: "gte", value: 100 }, true],
    ["regex", { path: "$.order.customer.name", assertAction: "matches", value: "^A\\w+$" }, true],
    ["legacy alias match", { path: "$.order.customer.name", assertAction: "match", value: "^B" }, false],
    ["absent field + not_matches passes", { path: "$.order.coupon", assertAction: "not_matches", value: "^FREE" }, true],
    ["absent field + equals fails", { path: "$.order.coupon", assertAction: "equals", value: "FREE" }, false],
    ["null is empty", { path: "$.order.note", assertAction: "empty" }, true],
    ["null is present but empty", { path: "$.order.note", assertAction: "notEmpty" }, false],
    ["any on an absent field", { path: "$.nothing.here", assertAction: "any" }, true],
  ])("%s", (_label, condition, pass) => {
    expect(verdict({ conditions: [condition] }, request({ body })).pass).toBe(pass);
  });

  it("all conditions must pass", () => {
    const block: ConditionBlock = {
      conditions: [
        { path: "$.order.id", assertAction: "equals", value: 7 },
        { path: "$.order.status", assertAction: "equals", value: "refunded" },
      ],
    };
    const result = verdict(block, request({ body }));
    expect(result.pass).toBe(false);
    expect(result.failures.map((f) => f.path)).toEqual(["$.order.status"]);
  });

  it("a text body is reachable at $", () => {
    expect(verdict({ conditions: [{ path: "$", assertAction: "contains", value: "hello" }] }, request({ body: "say hello" })).pass).toBe(true);
  });
});

describe("query conditions", () => {
  const req = request({ query: { page: ["10"], limit: ["9"], tag: ["a", "b"], q: [""] } });

  it.each<[string, Condition, boolean]>([
    // Query values are strings; gt/lt parse both sides.
    ["numeric strings: 10 gt 9", { path: "page", assertAction: "gt", value: 9 }, true],
    ["numeric strings: 10 gt '9'", { path: "page", assertAction: "gt", value: "9" }, true],
    ["numeric strings: 9 lt 10 (not text order)", { path: "limit", assertAction: "lt", value: "10" }, true],
    ["a single value equals the number", { path: "page", assertAction: "equals", value: 10 }, true],
    ["several values form a list", { path: "tag", assertAction: "equals", value: ["a", "b"] }, true],
    ["contains finds one of several values", { path: "tag", assertAction: "contains", value: "b" }, true],
    ["an empty value is empty", { path: "q", assertAction: "empty" }, true],
    ["an absent parameter is empty", { path: "sort", assertAction: "empty" }, true],
    ["an absent parameter fails gt", { path: "sort", assertAction: "gt", value: 0 }, false],
    ["names are case-sensitive", { path: "PAGE", assertAction: "notEmpty" }, false],
    ["not inherited properties", { path: "constructor", assertAction: "notEmpty" }, false],
  ])("%s", (_label, condition, pass) => {
    expect(verdict({ queryParams: [condition] }, req).pass).toBe(pass);
  });

  it("an empty list is an absent parameter", () => {
    expect(verdict({ queryParams: [{ path: "x", assertAction: "not_equals", value: "1" }] }, request({ query: { x: [] } })).pass).toBe(true);
    expect(verdict({ queryParams: [{ path: "x", assertAction: "any" }] }, request({ query: { x: [] } })).pass).toBe(true);
    expect(verdict({ queryParams: [{ path: "x", assertAction: "notEmpty" }] }, request({ query: { x: [] } })).failures[0].found).toBe(false);
  });
});

describe("header conditions", () => {
  const req = request({ headers: { "x-request-id": ["abc-123"], accept: ["text/html", "application/json"] } });

  it.each<[string, Condition, boolean]>([
    ["lower-case name", { path: "x-request-id", assertAction: "equals", value: "abc-123" }, true],
    ["any casing of the name", { path: "X-Request-ID", assertAction: "equals", value: "abc-123" }, true],
    ["values keep their case", { path: "X-Request-Id", assertAction: "equals", value: "ABC-123" }, false],
    ["several values", { path: "Accept", assertAction: "contains", value: "application/json" }, true],
    ["absent header + not_contains", { path: "Authorization", assertAction: "not_contains", value: "Bearer" }, true],
    ["absent header + notEmpty", { path: "Authorization", assertAction: "notEmpty" }, false],
  ])("%s", (_label, condition, pass) => {
    expect(verdict({ header: [condition] }, req).pass).toBe(pass);
  });

  it("reports the name as written", () => {
    const result = verdict({ header: [{ path: "X-Request-ID", assertAction: "equals", value: "other" }] }, req);
    expect(result.failures[0]).toMatchObject({ source: "header", path: "X-Request-ID", actual: "abc-123", found: true });
  });
});

describe("decode: base64", () => {
  const token = b64(JSON.stringify({ sub: "u1", role: "admin", scopes: ["read", "write"] }));

  it.each<[string, string | undefined, Condition, boolean]>([
    ["decoded text equals", b64("hello"), { path: "x-data", assertAction: "equals", value: "hello", decode: "base64" }, true],
    ["the raw value is not the text", b64("hello"), { path: "x-data", assertAction: "equals", value: "hello" }, false],
    ["decoded JSON object compared as a value", token, { path: "x-data", assertAction: "contains", value: { role: "admin" }, decode: "base64" }, true],
    ["decoded JSON array element", token, { path: "x-data", assertAction: "contains", value: { scopes: ["write"] }, decode: "base64" }, true],
    ["decoded JSON mismatch", token, { path: "x-data", assertAction: "contains", value: { role: "user" }, decode: "base64" }, false],
    // Decoded scalars stay text: substring still works, and "12345" still equals 12345.
    ["decoded numeric text keeps substring", b64("12345"), { path: "x-data", assertAction: "contains", value: "234", decode: "base64" }, true],
    ["decoded numeric text equals the number", b64("12345"), { path: "x-data", assertAction: "equals", value: 12345, decode: "base64" }, true],
    ["URL-safe alphabet without padding", b64url("??>>~~"), { path: "x-data", assertAction: "equals", value: "??>>~~", decode: "base64" }, true],
    ["missing padding", "aGk", { path: "x-data", assertAction: "equals", value: "hi", decode: "base64" }, true],
    ["unicode text", b64("café ☕"), { path: "x-data", assertAction: "equals", value: "café ☕", decode: "base64" }, true],
    ["invalid base64 fails", "not base64!", { path: "x-data", assertAction: "any", decode: "base64" }, false],
    ["invalid base64 fails a negation too", "%%%", { path: "x-data", assertAction: "not_equals", value: "x", decode: "base64" }, false],
    ["bytes that are not UTF-8 fail", Buffer.from([0xff, 0xfe, 0xfd]).toString("base64"), { path: "x-data", assertAction: "any", decode: "base64" }, false],
    ["an absent field is not decoded", undefined, { path: "x-data", assertAction: "not_matches", value: "x", decode: "base64" }, true],
  ])("%s", (_label, header, condition, pass) => {
    const req = request({ headers: header === undefined ? {} : { "x-data": [header] } });
    expect(verdict({ header: [condition] }, req).pass).toBe(pass);
  });

  it("decodes body values and query values too", () => {
    const req = request({ body: { payload: b64('{"a":1}') }, query: { d: [b64("yes")] } });
    const block: ConditionBlock = {
      conditions: [{ path: "$.payload", assertAction: "equals", value: { a: 1 }, decode: "base64" }],
      queryParams: [{ path: "d", assertAction: "equals", value: "yes", decode: "base64" }],
    };
    expect(verdict(block, req).pass).toBe(true);
  });

  it("says why decoding failed", () => {
    const result = verdict({ header: [{ path: "x-data", assertAction: "equals", value: "x", decode: "base64" }] }, request({ headers: { "x-data": ["%%%"] } }));
    expect(result.failures[0]).toMatchObject({ expected: "x", actual: "%%%", found: true, reason: expect.stringMatching(/not valid base64/) });
    expect(result.distance).toBe(1);
  });

  it("refuses a value that is not a string", () => {
    const result = verdict({ conditions: [{ path: "$.n", assertAction: "any", decode: "base64" }] }, request({ body: { n: 5 } }));
    expect(result.failures[0].reason).toMatch(/not a string/);
  });
});

describe("sortArray", () => {
  const req = request({ body: { ids: [3, 1, 2], groups: [{ tags: ["b", "a"] }, { tags: ["c"] }] } });
  const ids = (sortArray?: boolean): Condition => ({ path: "$.ids", assertAction: "equals", value: [1, 2, 3], ...(sortArray === undefined ? {} : { sortArray }) });

  it.each<[string, boolean | undefined, boolean | undefined, boolean]>([
    ["off by default: order matters", undefined, undefined, false],
    ["block flag on", true, undefined, true],
    ["block flag off", false, undefined, false],
    ["condition on overrides block off", false, true, true],
    ["condition on without block flag", undefined, true, true],
    ["condition off overrides block on", true, false, false],
  ])("%s", (_label, blockSort, conditionSort, pass) => {
    const block: ConditionBlock = { conditions: [ids(conditionSort)], ...(blockSort === undefined ? {} : { sortArray: blockSort }) };
    expect(verdict(block, req).pass).toBe(pass);
  });

  it("sorts nested arrays and arrays of objects on both sides", () => {
    const condition: Condition = { path: "$.groups", assertAction: "equals", value: [{ tags: ["c"] }, { tags: ["a", "b"] }], sortArray: true };
    expect(verdict({ conditions: [condition] }, req).pass).toBe(true);
    expect(verdict({ conditions: [{ ...condition, sortArray: false }] }, req).pass).toBe(false);
  });

  it("lines numeric text up with numbers", () => {
    const condition: Condition = { path: "id", assertAction: "equals", value: [9, 10, 100], sortArray: true };
    expect(verdict({ queryParams: [condition] }, request({ query: { id: ["100", "10", "9"] } })).pass).toBe(true);
  });

  it("reports both sides sorted", () => {
    const result = verdict({ conditions: [{ path: "$.ids", assertAction: "equals", value: [4, 3, 1], sortArray: true }] }, req);
    expect(result.failures[0]).toMatchObject({ expected: [1, 3, 4], actual: [1, 2, 3] });
  });

  it("does not change the request", () => {
    verdict({ sortArray: true, conditions: [ids()] }, req);
    expect((req.body as { ids: number[] }).ids).toEqual([3, 1, 2]);
  });
});

describe("valueFromFile", () => {
  const files: Record<string, string> = {
    "expected-order.json": '{ "customer": { "tier": "gold" } }',
    "status.txt": "paid",
    "id-7.json": "7",
    "id-8.json": "8",
    "pattern.txt": "^A",
    "bad-pattern.txt": "(?=A)",
    "quoted-five.json": '"5"',
    "five.json": "5\n",
  };
  const reads: string[] = [];
  const deps: ConditionDeps = {
    readFile: (path) => {
      reads.push(path);
      return files[path];
    },
    renderPath: (path, req) => path.replace("{{id}}", req.query.id?.[0] ?? ""),
  };
  const req = request({ body, query: { id: ["7"] } });

  it.each<[string, Condition, boolean]>([
    ["JSON content is parsed", { path: "$.order", assertAction: "contains", valueFromFile: "expected-order.json" }, true],
    ["other content is raw text", { path: "$.order.status", assertAction: "equals", valueFromFile: "status.txt" }, true],
    ["the path is templated", { path: "$.order.id", assertAction: "equals", valueFromFile: "id-{{id}}.json" }, true],
    ["it takes precedence over value", { path: "$.order.id", assertAction: "equals", value: 99, valueFromFile: "id-7.json" }, true],
    ["a regex from a file", { path: "$.order.customer.name", assertAction: "matches", valueFromFile: "pattern.txt" }, true],
  ])("%s", (_label, condition, pass) => {
    expect(verdict({ conditions: [condition] }, req, deps).pass).toBe(pass);
  });

  it('a file can hold the number 5 or the string "5", as value can', () => {
    const code = request({ body: { code: "150" } });
    const fromFile = (file: string) => verdict({ conditions: [{ path: "$.code", assertAction: "contains", valueFromFile: file }] }, code, deps).pass;
    expect(fromFile("quoted-five.json")).toBe(true);
    expect(fromFile("five.json")).toBe(false);
  });

  it("follows the request through the templated path", () => {
    const compiled = compileConditions({ conditions: [{ path: "$.order.id", assertAction: "equals", valueFromFile: "id-{{id}}.json" }] }, deps);
    expect(compiled.evaluate(request({ body, query: { id: ["7"] } })).pass).toBe(true);
    expect(compiled.evaluate(request({ body, query: { id: ["8"] } })).pass).toBe(false);
    expect(compiled.evaluate(request({ body, query: { id: ["7"] } })).pass).toBe(true);
  });

  it("reads the file on every request, so a changed file takes effect", () => {
    const content = { value: "paid" };
    const compiled = compileConditions(
      { conditions: [{ path: "$.order.status", assertAction: "equals", valueFromFile: "live.txt" }] },
      { readFile: () => content.value },
    );
    expect(compiled.evaluate(req).pass).toBe(true);
    content.value = "refunded";
    expect(compiled.evaluate(req).pass).toBe(false);
  });

  it("a missing file fails the condition and says so", () => {
    reads.length = 0;
    const result = verdict({ conditions: [{ path: "$.order.id", assertAction: "equals", valueFromFile: "id-{{id}}.json" }] }, request({ body, query: { id: ["9"] } }), deps);
    expect(reads).toEqual(["id-9.json"]);
    expect(result.pass).toBe(false);
    expect(result.failures[0]).toMatchObject({ source: "body", path: "$.order.id", actual: 7, found: true, reason: 'valueFromFile "id-9.json": no such file' });
  });

  it("a missing file fails even a negation", () => {
    expect(verdict({ conditions: [{ path: "$.x", assertAction: "not_equals", valueFromFile: "nope.txt" }] }, req, deps).pass).toBe(false);
  });

  it("without a file reader the condition fails", () => {
    const result = verdict({ conditions: [{ path: "$.order.status", assertAction: "equals", valueFromFile: "status.txt" }] }, req);
    expect(result.failures[0].reason).toMatch(/not available/);
  });

  it("an invalid regex in a file fails the condition instead of throwing", () => {
    const result = verdict({ conditions: [{ path: "$.order.status", assertAction: "matches", valueFromFile: "bad-pattern.txt" }] }, req, deps);
    expect(result.failures[0].reason).toMatch(/lookahead/);
  });

  it("a template error fails the condition instead of throwing", () => {
    const failing: ConditionDeps = {
      readFile: () => "x",
      renderPath: () => {
        throw new Error("unknown placeholder $.nope");
      },
    };
    const result = verdict({ conditions: [{ path: "$.order.status", assertAction: "equals", valueFromFile: "$.nope" }] }, req, failing);
    expect(result.failures[0].reason).toMatch(/unknown placeholder/);
  });
});

describe("compilation", () => {
  it("counts the conditions of all sources", () => {
    const compiled = compileConditions({
      conditions: [{ path: "$.a", assertAction: "any" }],
      queryParams: [{ path: "a", assertAction: "any" }, { path: "b", assertAction: "any" }],
      header: [{ path: "a", assertAction: "any" }],
    });
    expect(compiled.count).toBe(4);
  });

  it("refuses an inline regex RE2 does not support, so saving can answer 400", () => {
    expect(() => compileConditions({ header: [{ path: "x", assertAction: "matches", value: "(a)\\1" }] })).toThrow(InvalidRegexError);
    expect(() => compileConditions({ conditions: [{ path: "$.x", assertAction: "not_matches", value: "(?<=a)b" }] })).toThrow(/lookbehind/);
  });

  it("a condition that needs a value and has none never passes", () => {
    const result = verdict({ conditions: [{ path: "$.order.id", assertAction: "not_equals" }] }, request({ body }));
    expect(result.failures[0].reason).toMatch(/no value/);
  });
});

describe("failure details", () => {
  it("names the source, path, action, both values and whether the field was found", () => {
    const req = request({ body, query: { page: ["x"] }, headers: {} });
    const result = verdict(
      {
        conditions: [{ path: "$.order.customer.tier", assertAction: "equals", value: "silver" }],
        queryParams: [{ path: "page", assertAction: "gt", value: 1 }],
        header: [{ path: "X-Tenant", assertAction: "matches", value: "^t-" }],
      },
      req,
    );
    expect(result.pass).toBe(false);
    expect(result.failures).toEqual([
      { source: "body", path: "$.order.customer.tier", assertAction: "equals", expected: "silver", actual: "gold", found: true },
      { source: "query", path: "page", assertAction: "gt", expected: 1, actual: "x", found: true },
      { source: "header", path: "X-Tenant", assertAction: "matches", expected: "^t-", actual: undefined, found: false },
    ]);
  });
});

describe("distance", () => {
  const evalDistance = (value: unknown, actual: unknown) =>
    verdict({ conditions: [{ path: "$.v", assertAction: "equals", value }] }, request({ body: { v: actual } })).distance;

  it("is the mean of the conditions' distances", () => {
    const result = verdict(
      {
        conditions: [
          { path: "$.order.id", assertAction: "equals", value: 7 },
          { path: "$.order.missing", assertAction: "equals", value: 7 },
        ],
      },
      request({ body }),
    );
    expect(result.distance).toBe(0.5);
  });

  it.each([
    ["a one-letter typo", "premium", "premiun", "basic"],
    ["a close number", 100, 99, 3],
    ["one differing key", { a: 1, b: 2, c: 3 }, { a: 1, b: 2, c: 0 }, { x: 1 }],
  ])("a near miss is closer than a far miss: %s", (_label, value, near, far) => {
    const nearDistance = evalDistance(value, near);
    const farDistance = evalDistance(value, far);
    expect(nearDistance).toBeGreaterThan(0);
    expect(nearDistance).toBeLessThan(farDistance);
  });

  it("one failing condition out of three is closer than three out of three", () => {
    const block: ConditionBlock = {
      queryParams: [
        { path: "a", assertAction: "equals", value: "1" },
        { path: "b", assertAction: "equals", value: "2" },
        { path: "c", assertAction: "equals", value: "3" },
      ],
    };
    const compiled = compileConditions(block);
    const near = compiled.evaluate(request({ query: { a: ["1"], b: ["2"], c: ["x"] } }));
    const far = compiled.evaluate(request({ query: {} }));
    expect(near.failures).toHaveLength(1);
    expect(far.failures).toHaveLength(3);
    expect(near.distance).toBeLessThan(far.distance);
    expect(far.distance).toBe(1);
  });
});
