// The slot form of JSON templates (compileJsonText / renderJsonText) must give
// exactly the bytes JSON.stringify gives for the value form, and HTTP mocks
// answer with it while every reader of `body` still sees the value.
import { describe, expect, it } from "vitest";
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { buildNamespace, handle } from "./engine";
import { responseBytes, TextBodyResponse } from "./rendered-body";
import { compileJsonText, compileTemplate, renderJsonText, renderTemplate, TemplateError } from "./template";
import { memoryDeps, MemoryStores, seededRandom } from "./testing";
import type { EngineRequest, TemplateContext } from "./types";

const requestBody = {
  name: "Zoë \"the\" <b>\\ \u2028 \u0001",
  age: 30,
  ratio: 1e21,
  small: -0.000001,
  vip: false,
  nothing: null,
  tags: ["x", { y: [1, null] }],
  emoji: "😀 \ud83d",
  "odd key": "v",
};

function context(seed: number): TemplateContext {
  const stores = new MemoryStores();
  stores.setGlobal("team-a", "user", { name: "Zed", roles: ["a", "b"] });
  stores.setGlobal("team-a", "nil", null);
  return {
    request: { namespace: "team-a", method: "POST", path: "/users/42", headers: { "x-trace-id": ["abc"], accept: ["a", "b"] }, query: { page: ["2"], tag: ["a", "b"] }, body: requestBody },
    pathParams: { id: "42" },
    namespace: "team-a",
    mockStore: { n: 7 },
    stores,
    clock: { now: () => Date.UTC(2026, 0, 1) },
    random: seededRandom(seed),
  };
}

const TEMPLATES: [string, unknown][] = [
  ["flat, typed whole-string values", { id: "$.pathParam.id", age: "$.req.age", vip: "$.req.vip", nothing: "$.req.nothing", missing: "$.req.nope" }],
  ["nested objects and arrays", { a: { b: [1, "$.req.age", { c: "$.req.tags", d: [[], {}] }], e: "static" }, f: ["$.req.tags[1].y", "$.mS.n"] }],
  ["array root", ["$.req.name", 2, "x $.req.age y", null, true, { k: "$.gS.user" }]],
  ["unicode and escapes", { "ké\"y\n": "Zoë \"q\" \\ \u2028 😀 $.req.name", static: "tab\t<script>", lone: "$.req.emoji" }],
  ["numbers", { big: "$.req.ratio", small: "$.req.small", lit: [0, -1.5, 1e300, 123456789012345680000], text: "n=$.req.ratio" }],
  ["nulls", { a: null, b: "$.gS.nil", c: "v: $.gS.nil", d: [null, "$.req.nothing"] }],
  ["whole request and stores", { echo: "$.req", headers: "$.reqHeader", q: "$.queryParams", qs: "$.queryParams.tag", user: "$.gS.user", text: "u=$.gS.user" }],
  ["braced values stay text", { n: "{{$.req.age}}", o: "{{ $.req.odd key }}", ns: "$.namespace" }],
  ["$.fake seeded", { id: "$.fake.UUID", name: "$.fake.FullName", age: "$.fake.Age", ref: "ref-$.fake.UUID", list: ["$.fake.Email", { deep: "$.fake.Int" }] }],
  ["templated keys (value path inside)", { fixed: 1, inner: { "$.req.name": "$.req.age", "k-$.pathParam.id": [1, "$.fake.UUID"] } }],
  ["integer-like static keys", { b: "$.req.age", "2": "x", "1": "$.req.name", a: [] }],
  ["__proto__ key", JSON.parse('{"__proto__": {"p": "$.req.name"}, "ok": "$.req.age"}')],
];

describe("compileJsonText / renderJsonText", () => {
  it.each(TEMPLATES)("gives JSON.stringify of the value path byte for byte: %s", (_label, template) => {
    const compiled = compileTemplate(template);
    const slots = compileJsonText(compiled);
    expect(slots).toBeDefined();
    // Same seed: fake values are drawn in the same order by both paths.
    const text = renderJsonText(slots!, context(7));
    expect(text).toBe(JSON.stringify(renderTemplate(compiled, context(7))));
    expect(renderJsonText(slots!, context(7))).toBe(text);
  });

  it("serialises the static parts once: a template without slots is one piece", () => {
    const slots = compileJsonText(compileTemplate({ a: { b: [1, 2] }, c: "$.req.age", d: "text" }))!;
    expect(slots.pieces).toEqual(['{"a":{"b":[1,2]},"c":', ',"d":"text"}']);
    expect(slots.slots).toHaveLength(1);
  });

  it.each<[string, unknown]>([
    ["a whole-string root (its type is known only at render)", "$.req.name"],
    ["a text root", "hello $.req.name"],
    ["a templated key at the root (keys may collide)", { "$.req.name": 1, x: "$.req.age" }],
  ])("is not made for %s", (_label, template) => {
    expect(compileJsonText(compileTemplate(template))).toBeUndefined();
  });

  it.each<[string, unknown, number]>([
    ["whole values", Array.from({ length: 20 }, () => "$.req"), 10_000],
    ["embedded strings", Array.from({ length: 20 }, () => "big: $.req.big"), 10_000],
    ["static parts with one slot", { pad: "y".repeat(9_990), v: "$.req.big" }, 10_000],
    ["templated keys", { x: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i} $.req.big`, 1])) }, 10_000],
  ])("refuses oversized output exactly when the value path does (%s)", (_label, template, limit) => {
    const ctx = context(1);
    ctx.request = { ...ctx.request, body: { big: "x".repeat(1000) } };
    const compiled = compileTemplate(template);
    const slots = compileJsonText(compiled)!;
    for (const maxOutputSize of [limit, limit * 10]) {
      const valuePath = (() => {
        try {
          return JSON.stringify(renderTemplate(compiled, ctx, { maxOutputSize }));
        } catch (e) {
          return e;
        }
      })();
      if (valuePath instanceof TemplateError) expect(() => renderJsonText(slots, ctx, { maxOutputSize })).toThrow(valuePath.message);
      else expect(renderJsonText(slots, ctx, { maxOutputSize })).toBe(valuePath);
    }
    expect(() => renderJsonText(slots, ctx, { maxOutputSize: limit })).toThrow(TemplateError);
  });
});

let seq = 0;
function mock(input: Record<string, unknown>): { mock: MockDefinition; sequence: number; createdAt: number } {
  const parsed = MockInput.parse({ id: `m${seq}`, ...input });
  return { mock: { ...parsed, id: parsed.id!, namespace: "sandbox" }, sequence: seq++, createdAt: Date.UTC(2026, 0, 1) };
}
const req = (path: string, extra: Partial<EngineRequest> = {}): EngineRequest => ({ namespace: "sandbox", method: "GET", path, headers: {}, query: {}, body: undefined, ...extra });

describe("HTTP mocks with templated payloads", () => {
  it("answer with the rendered text; body is its value, parsed when read", async () => {
    const payload = { id: "$.pathParam.id", uuid: "$.fake.UUID", echo: "$.queryParams.q", list: [1, "$.pathParam.id"] };
    const ns = buildNamespace("sandbox", [mock({ http: { route: "/w4/items/:id", httpMethod: "GET" }, response: { payload } })]);
    const r = await handle(ns, req("/w4/items/42", { query: { q: ["é\"x"] } }), memoryDeps());
    if (!r.matched) throw new Error("no match");
    expect(r.response).toBeInstanceOf(TextBodyResponse);
    const { body, isText } = responseBytes(r.response);
    expect(isText).toBe(false);
    expect(typeof body).toBe("string");
    const value = JSON.parse(body as string);
    expect(value).toEqual({ id: "42", uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), echo: 'é"x', list: [1, "42"] });
    expect(r.response.body).toEqual(value);
    // The value path renders the same bytes for the same draws.
    expect(JSON.stringify(r.response.body)).toBe(body);
    expect(JSON.parse(JSON.stringify(r.response)).body).toEqual(value);
  });

  it("send the new body once it is replaced", async () => {
    const ns = buildNamespace("sandbox", [mock({ http: { route: "/t/:id" }, response: { payload: { id: "$.pathParam.id" } } })]);
    const r = await handle(ns, req("/t/7"), memoryDeps());
    if (!r.matched) throw new Error("no match");
    expect(responseBytes(r.response).body).toBe('{"id":"7"}');
    r.response.body = "replaced";
    expect(responseBytes(r.response)).toEqual({ body: "replaced", isText: true });
    expect(r.response.body).toBe("replaced");
  });

  it("keep the value path for other protocols (GraphQL composes the value) and for payloads whose root is a placeholder", async () => {
    const ns = buildNamespace("sandbox", [
      mock({ graphql: { operation: "query", field: "user" }, response: { payload: { id: "$.req.id", name: "Ada" } } }),
      mock({ http: { route: "/whole" }, response: { payload: "$.queryParams.n" } }),
    ]);
    const gql = await handle(ns, { ...req("/graphql"), method: "query user", body: { id: "7" } }, memoryDeps(), "graphql");
    if (!gql.matched) throw new Error("no graphql match");
    expect(gql.response).not.toBeInstanceOf(TextBodyResponse);
    expect(gql.response.body).toEqual({ id: "7", name: "Ada" });
    const whole = await handle(ns, req("/whole", { query: { n: ["5"] } }), memoryDeps());
    expect(whole.matched && whole.response.body).toBe("5");
    expect(whole.matched && responseBytes(whole.response)).toEqual({ body: "5", isText: true });
  });
});
