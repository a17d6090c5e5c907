import { describe, expect, it } from "vitest";
import {
  TEMPLATE_LIMITS,
  TemplateError,
  compileString,
  compileTemplate,
  hasPlaceholders,
  renderString,
  renderTemplate,
  renderTemplateFile,
  renderTemplateText,
} from "./template";
import { seededRandom } from "./testing";
import type { StoreAccess, TemplateContext } from "./types";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The smallest StoreAccess: one map per store, keyed by namespace (and chain). */
function memoryStores(global: Record<string, unknown>, chain: Record<string, unknown>): StoreAccess {
  const g = new Map(Object.entries(global).map(([k, v]) => [`team-a/${k}`, v]));
  const c = new Map(Object.entries(chain).map(([k, v]) => [`team-a/c1/${k}`, v]));
  return {
    getGlobal: (ns, key) => g.get(`${ns}/${key}`),
    getChain: (ns, chainId, key) => c.get(`${ns}/${chainId}/${key}`),
    setGlobal: (ns, key, value) => void g.set(`${ns}/${key}`, value),
    setChain: (ns, chainId, key, value) => void c.set(`${ns}/${chainId}/${key}`, value),
  };
}

const body = {
  name: "Ann",
  age: 30,
  vip: true,
  nothing: null,
  "first name": "Ann B",
  "odd.key": 1,
  "user-id": "u-9",
  tags: ["x", "y"],
  order: { id: 7, items: [{ id: "a1", qty: 2 }, { id: "b2" }] },
};

function context(over: Partial<TemplateContext> = {}): TemplateContext {
  return {
    request: {
      namespace: "team-a",
      method: "POST",
      path: "/users/42",
      headers: { authorization: ["Bearer t0k"], "x-trace-id": ["abc"], accept: ["text/html", "application/json"] },
      query: { page: ["2"], tag: ["a", "b"], empty: [""] },
      body,
    },
    pathParams: { id: "42", "order-id": "o-1" },
    namespace: "team-a",
    chainId: "c1",
    mockStore: { token: "m-tok", n: 1, nested: { deep: [10, 20] } },
    stores: memoryStores({ count: 5, user: { name: "Zed" }, nil: null }, { step: 3 }),
    clock: { now: () => Date.UTC(2026, 0, 1) },
    random: seededRandom(1),
    ...over,
  };
}

const render = (value: unknown, ctx = context()) => renderTemplate(compileTemplate(value), ctx);

describe("$.fake", () => {
  it.each([
    ["$.fake.Int", "number"],
    ["$.fake.Float", "number"],
    ["$.fake.Timestamp", "number"],
    ["$.fake.Bool", "boolean"],
    ["$.fake.UUID", "string"],
    ["$.fake.uuid", "string"],
    ["$.fake.EMAIL", "string"],
  ])("%s as a whole string keeps its type (%s)", (template, type) => {
    expect(typeof render(template)).toBe(type);
  });

  it.each([
    ["$.fake.UUID", UUID],
    ["id-$.fake.Int", /^id-\d+$/],
    ["{{$.fake.Int}}", /^\d+$/],
    ["{{ $.fake.uuid }}", UUID],
    ["at $.fake.RFC3339.", /^at 2026-01-01T00:00:00Z\.$/],
    ["$.fake.UUID-$.fake.UUID", /^[0-9a-f-]{36}-[0-9a-f-]{36}$/],
  ])("%s renders as %s", (template, shape) => {
    expect(render(template)).toMatch(shape);
  });

  it.each(["$.fake.NoSuchName", "$.fake", "$.fake.", "see $.fake.Nope here", "{{$.fake.Nope}}"])("%s (unknown) stays as written", (template) => {
    expect(render(template)).toBe(template);
  });
});

describe("$.req", () => {
  it.each<[string, unknown]>([
    ["$.req.name", "Ann"],
    ["$.req.age", 30],
    ["$.req.vip", true],
    ["$.req.nothing", null],
    ["$.req.tags", ["x", "y"]],
    ["$.req.order", body.order],
    ["$.req.order.id", 7],
    ["$.req.order.items[0].id", "a1"],
    ["$.req.order.items[1].id", "b2"],
    ["$.req.order.items[-1].id", "b2"],
    ["$.req.order.items.0.qty", 2],
    ["$.req['odd.key']", 1],
    ['$.req["first name"]', "Ann B"],
    ["$.req.user-id", "u-9"],
    ["$.req", body],
    ["$.req.missing", null],
    ["$.req.order.items[9].id", null],
    ["$.req.name.first", null],
    ["$.req.__proto__", null],
    ["$.req.constructor", null],
    ["$.req.toString", null],
    ["$.req.order.constructor.name", null],
  ])("%s → %j", (template, expected) => {
    expect(render(template)).toEqual(expected);
  });

  it("reads a raw text body as a whole", () => {
    const ctx = context();
    ctx.request = { ...ctx.request, body: "plain text" };
    expect(render("$.req", ctx)).toBe("plain text");
    expect(render("$.req.x", ctx)).toBeNull();
  });
});

describe("$.reqHeader", () => {
  it.each<[string, unknown]>([
    ["$.reqHeader.Authorization[0]", "Bearer t0k"],
    ["$.reqHeader.authorization[0]", "Bearer t0k"],
    ["$.reqHeader.AUTHORIZATION", ["Bearer t0k"]],
    ["$.reqHeader.x-trace-id[0]", "abc"],
    ["$.reqHeader.X-Trace-Id[0]", "abc"],
    ["$.reqHeader.Accept", ["text/html", "application/json"]],
    ["$.reqHeader.Accept[1]", "application/json"],
    ["$.reqHeader.missing[0]", null],
    ["$.reqHeader.missing", null],
    ["$.reqHeader.constructor", null],
    ["$.reqHeader.__proto__", null],
    ["trace=$.reqHeader.x-trace-id[0].", "trace=abc."],
    ["{{$.reqHeader.X-TRACE-ID[0]}}", "abc"],
  ])("%s → %j", (template, expected) => {
    expect(render(template)).toEqual(expected);
  });

  it("finds a header whose name an adapter did not lower-case", () => {
    const ctx = context();
    ctx.request = { ...ctx.request, headers: { "X-Custom": ["v"] } };
    expect(render("$.reqHeader.x-custom[0]", ctx)).toBe("v");
  });
});

describe("$.queryParams", () => {
  it.each<[string, unknown]>([
    ["$.queryParams.page", "2"],
    ["$.queryParams.page[0]", "2"],
    ["$.queryParams.tag", ["a", "b"]],
    ["$.queryParams.tag[0]", "a"],
    ["$.queryParams.tag[1]", "b"],
    ["$.queryParams.empty", ""],
    ["$.queryParams.missing", null],
    ["$.queryParams.page[3]", null],
    ["$.queryParams.constructor", null],
    ["page $.queryParams.page of 9", "page 2 of 9"],
    ["tags=$.queryParams.tag", 'tags=["a","b"]'],
  ])("%s → %j", (template, expected) => {
    expect(render(template)).toEqual(expected);
  });

  it("is case-sensitive in parameter names, as query strings are", () => {
    expect(render("$.queryParams.PAGE")).toBeNull();
  });
});

describe("$.pathParam", () => {
  it.each<[string, unknown]>([
    ["$.pathParam.id", "42"],
    ["$.pathParam.order-id", "o-1"],
    ["/users/$.pathParam.id/orders", "/users/42/orders"],
    ["$.pathParam.nope", null],
    ["$.pathParam.hasOwnProperty", null],
    ["$.pathParam", { id: "42", "order-id": "o-1" }],
  ])("%s → %j", (template, expected) => {
    expect(render(template)).toEqual(expected);
  });
});

describe("$.namespace", () => {
  it.each<[string, unknown]>([
    ["$.namespace", "team-a"],
    ["ns=$.namespace.", "ns=team-a."],
    ["http://$.namespace.svc.local/", "http://team-a.svc.local/"],
    ["{{$.namespace}}", "team-a"],
    ["$.namespaces", "$.namespaces"],
  ])("%s → %j", (template, expected) => {
    expect(render(template)).toEqual(expected);
  });
});

describe("$.gS (global store)", () => {
  it.each<[string, unknown]>([
    ["$.gS.count", 5],
    ["$.gS.user", { name: "Zed" }],
    ["$.gS.user.name", "Zed"],
    ["$.gS['count']", 5],
    ["$.gS.nil", null],
    ["$.gS.missing", null],
    ["count: $.gS.count", "count: 5"],
    ["$.gS", "$.gS"],
  ])("%s → %j", (template, expected) => {
    expect(render(template)).toEqual(expected);
  });

  it("reads the store of the context's namespace only", () => {
    expect(render("$.gS.count", context({ namespace: "other" }))).toBeNull();
  });
});

describe("$.cS (chain store)", () => {
  it.each<[string, string | undefined, unknown]>([
    ["$.cS.step", "c1", 3],
    ["$.cS.missing", "c1", null],
    ["$.cS.step", "c2", null],
    ["$.cS.step", undefined, null],
    ["step $.cS.step", undefined, "step "],
  ])("%s with chain %s → %j", (template, chainId, expected) => {
    expect(render(template, context({ chainId }))).toEqual(expected);
  });
});

describe("$.mS (mock store)", () => {
  it.each<[string, unknown]>([
    ["$.mS.token", "m-tok"],
    ["$.mS.n", 1],
    ["$.mS.nested.deep[1]", 20],
    ["$.mS.missing", null],
    ["Bearer $.mS.token", "Bearer m-tok"],
  ])("%s → %j", (template, expected) => {
    expect(render(template)).toEqual(expected);
  });
});

describe("embedded placeholders", () => {
  it.each<[string, string]>([
    ["Hello $.req.name!", "Hello Ann!"],
    ["Age: $.req.age.", "Age: 30."],
    ["$.req.vip/$.req.age", "true/30"],
    ["$.req.name-$.req.age", "Ann-30"],
    ["Order: $.req.order.items[0]", 'Order: {"id":"a1","qty":2}'],
    ["x $.req.missing y", "x  y"],
    ["x $.req.nothing y", "x  y"],
    ["{{$.req.name}}s", "Anns"],
    ["{{ $.req.first name }}", "Ann B"],
    ["{{$.req.age}}", "30"],
    ["{{$.req.missing}}", ""],
    ["${{$.req.age}}", "$30"],
    ["{{{$.req.age}}}", "{30}"],
    ["$.price is $.req.age", "$.price is 30"],
    ["{{$.price}}", "{{$.price}}"],
    ["{{ $.req.age", "{{ 30"],
    ["$$.req.age", "$30"],
    ["no placeholders", "no placeholders"],
  ])("%s → %s", (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

describe("JSON templates", () => {
  it("keeps types of whole-string placeholders inside nested structures", () => {
    const template = {
      id: "$.pathParam.id",
      user: { name: "$.req.name", age: "$.req.age", vip: "$.req.vip", order: "$.req.order" },
      list: ["$.req.age", "static", 1, null, "$.req.missing"],
      greeting: "Hi $.req.name",
    };
    expect(render(template)).toEqual({
      id: "42",
      user: { name: "Ann", age: 30, vip: true, order: body.order },
      list: [30, "static", 1, null, null],
      greeting: "Hi Ann",
    });
  });

  it("templates object keys in their text form", () => {
    expect(render({ "$.req.name": 1, "id-$.pathParam.id": "$.req.age", "$.req.order": true })).toEqual({
      Ann: 1,
      "id-42": 30,
      [JSON.stringify(body.order)]: true,
    });
  });

  it("reports no placeholders for a static payload and returns frozen static parts", () => {
    const compiled = compileTemplate({ a: [1, { b: "text $.price" }], c: null });
    expect(hasPlaceholders(compiled)).toBe(false);
    const out = renderTemplate(compiled, context()) as { a: unknown[] };
    expect(out).toEqual({ a: [1, { b: "text $.price" }], c: null });
    expect(Object.isFrozen(out)).toBe(true);
    expect(Object.isFrozen(out.a)).toBe(true);
  });

  it.each<[unknown, boolean]>([
    ["$.req.a", true],
    [{ k: ["x", "$.fake.UUID"] }, true],
    [{ "$.req.a": 1 }, true],
    [{ k: "{{$.namespace}}" }, true],
    [{ k: "$.fake.Unknown" }, false],
    [42, false],
    [null, false],
  ])("hasPlaceholders(%j) is %s", (template, expected) => {
    expect(hasPlaceholders(compileTemplate(template))).toBe(expected);
  });

  it("does not copy the source: changing it after compiling changes nothing", () => {
    const source = { a: { b: 1 }, c: "$.req.age" };
    const compiled = compileTemplate(source);
    source.a.b = 2;
    expect(renderTemplate(compiled, context())).toEqual({ a: { b: 1 }, c: 30 });
  });

  it("draws fresh fake values on every render of one compiled template", () => {
    const compiled = compileTemplate({ id: "$.fake.UUID", ref: "ref-$.fake.UUID" });
    const ctx = context({ random: seededRandom(99) });
    const ids = new Set<unknown>();
    for (let i = 0; i < 20; i++) ids.add((renderTemplate(compiled, ctx) as { id: string }).id);
    expect(ids.size).toBe(20);
  });

  it("is deterministic for a fixed Random", () => {
    const compiled = compileTemplate({ id: "$.fake.UUID", name: "$.fake.FullName", n: "$.fake.Int" });
    const a = renderTemplate(compiled, context({ random: seededRandom(5) }));
    const b = renderTemplate(compiled, context({ random: seededRandom(5) }));
    const c = renderTemplate(compiled, context({ random: seededRandom(6) }));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });
});

describe("compileString / renderString", () => {
  it.each<[string, string]>([
    ["$.req.age", "30"],
    ["$.reqHeader.accept", '["text/html","application/json"]'],
    ["Bearer $.mS.token", "Bearer m-tok"],
    ["/orders/$.pathParam.id?page=$.queryParams.page", "/orders/42?page=2"],
    ["$.req.missing", ""],
    ["static value", "static value"],
  ])("%s → %s", (template, expected) => {
    expect(renderString(compileString(template), context())).toBe(expected);
  });

  it("reports placeholders", () => {
    expect(hasPlaceholders(compileString("application/json"))).toBe(false);
    expect(hasPlaceholders(compileString("$.namespace"))).toBe(true);
  });
});

describe("template files", () => {
  it("renders a JSON file as a JSON template (types kept, text escaped)", () => {
    const ctx = context();
    ctx.request = { ...ctx.request, body: { name: 'say "hi"', n: 3 } };
    expect(renderTemplateFile('{"n": "$.req.n", "msg": "Hello $.req.name", "id": "$.pathParam.id"}', ctx)).toEqual({ n: 3, msg: 'Hello say "hi"', id: "42" });
  });

  it("parses text that becomes JSON only after rendering", () => {
    expect(renderTemplateFile('{"n": $.req.age, "tags": $.req.tags}', context())).toEqual({ n: 30, tags: ["x", "y"] });
  });

  it.each([
    ["Dear $.req.name,\nthanks.", "Dear Ann,\nthanks."],
    ["{not json $.req.name", "{not json Ann"],
    ["<user>$.req.name</user>", "<user>Ann</user>"],
  ])("returns other text as a string: %j", (text, expected) => {
    expect(renderTemplateFile(text, context())).toBe(expected);
  });

  it("renderTemplateText always gives text, from a string or a compiled string", () => {
    expect(renderTemplateText('{"n": "$.req.age"}', context())).toBe('{"n": "30"}');
    expect(renderTemplateText(compileString("ns $.namespace"), context())).toBe("ns team-a");
  });
});

describe("safety", () => {
  it("never runs code written in a template", () => {
    const out = render("$.req.constructor.constructor('globalThis.hacked = 1')()");
    expect(out).toBe("('globalThis.hacked = 1')()");
    expect((globalThis as { hacked?: number }).hacked).toBeUndefined();
  });

  it("keeps a __proto__ key as data and leaves prototypes alone", () => {
    const template = JSON.parse('{"__proto__": {"polluted": "$.req.name"}, "ok": "$.req.age"}');
    const out = render(template) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(out, "__proto__")).toBe(true);
    expect(out.__proto__).toEqual({ polluted: "Ann" });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("refuses templates nested deeper than the limit", () => {
    let deep: unknown = "$.req.name";
    for (let i = 0; i <= TEMPLATE_LIMITS.maxDepth + 1; i++) deep = [deep];
    expect(() => compileTemplate(deep)).toThrow(TemplateError);
    try {
      compileTemplate(deep);
    } catch (e) {
      expect((e as TemplateError).code).toBe("template_too_deep");
    }
  });

  it.each<[string, unknown]>([
    ["whole values", Array.from({ length: 20 }, () => "$.req")],
    ["embedded objects", Array.from({ length: 20 }, () => "body: $.req")],
    ["embedded strings", Array.from({ length: 20 }, () => "big: $.req.big")],
    ["object keys", Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i} $.req.big`, 1]))],
  ])("caps the output size (%s)", (_label, template) => {
    const ctx = context();
    ctx.request = { ...ctx.request, body: { big: "x".repeat(1000) } };
    const compiled = compileTemplate(template);
    expect(() => renderTemplate(compiled, ctx, { maxOutputSize: 10_000 })).toThrow(expect.objectContaining({ code: "template_too_large" }));
    expect(() => renderTemplate(compiled, ctx, { maxOutputSize: 100_000 })).not.toThrow();
  });

  it("caps at 10 MB by default, counting each echo of the request body", () => {
    const ctx = context();
    ctx.request = { ...ctx.request, body: { big: "x".repeat(1024 * 1024) } };
    expect(() => render(Array.from({ length: 11 }, () => "$.req"), ctx)).toThrow(TemplateError);
    expect(() => render(Array.from({ length: 9 }, () => "$.req"), ctx)).not.toThrow();
  });

  it("caps renderString too", () => {
    const ctx = context();
    ctx.request = { ...ctx.request, body: { big: "x".repeat(1000) } };
    expect(() => renderString(compileString("$.req.big $.req.big"), ctx, { maxOutputSize: 1500 })).toThrow(TemplateError);
  });
});
