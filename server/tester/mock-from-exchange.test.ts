// The planner that turns recorded exchanges into mock drafts: routes from
// URLs, transfer headers dropped, and the conditions that tell apart
// requests sharing method and path (or the reason one cannot be).
import { describe, expect, it } from "vitest";
import { mockFromExchange, planMocks, type Exchange } from "./mock-from-exchange";

const ok = (body: string, contentType = "application/json") => ({ status: 200, headers: [{ key: "Content-Type", value: contentType }, { key: "Content-Encoding", value: "gzip" }, { key: "Connection", value: "keep-alive" }], body });
const ex = (label: string, method: string, url: string, extra: Partial<Exchange["request"]> = {}, body = "{}"): Exchange => ({ label, request: { method, url, ...extra }, response: ok(body) });

describe("mockFromExchange", () => {
  it("takes the path as route, parses a JSON body, and drops transfer headers", () => {
    const d = mockFromExchange(ex("a", "get", "http://h:1/api/items/7?x=1", {}, '{"id":7}'));
    expect(d).toEqual({ http: { route: "/api/items/7", httpMethod: "GET" }, response: { statusCode: 200, headers: { "content-type": ["application/json"] }, payload: { id: 7 } } });
  });
  it("keeps a base64 body encoded and says so", () => {
    const d = mockFromExchange({ request: { method: "GET", url: "http://h/bin" }, response: { status: 200, headers: [], body: "AAEC", bodyEncoding: "base64" } });
    expect(d.response).toEqual({ statusCode: 200, payload: "AAEC", decode: "base64" });
  });
});

describe("planMocks", () => {
  const cases: { name: string; exchanges: Exchange[]; conditions: unknown[]; skipped: number }[] = [
    { name: "different paths need nothing", exchanges: [ex("a", "GET", "http://h/a"), ex("b", "GET", "http://h/b")], conditions: [{}, {}], skipped: 0 },
    { name: "same path, different method need nothing", exchanges: [ex("a", "GET", "http://h/a"), ex("b", "DELETE", "http://h/a")], conditions: [{}, {}], skipped: 0 },
    {
      name: "query values tell apart",
      exchanges: [ex("ada", "GET", "http://h/s?q=ada&page=1"), ex("bob", "GET", "http://h/s?q=bob&page=1")],
      conditions: [{ queryParams: [{ path: "q", assertAction: "equals", value: "ada" }] }, { queryParams: [{ path: "q", assertAction: "equals", value: "bob" }] }],
      skipped: 0,
    },
    {
      name: "JSON body fields tell apart",
      exchanges: [ex("book", "POST", "http://h/o", { body: '{"item":"book","n":1}' }), ex("pen", "POST", "http://h/o", { body: '{"item":"pen","n":1}' })],
      conditions: [{ conditions: [{ path: "$.item", assertAction: "equals", value: "book" }] }, { conditions: [{ path: "$.item", assertAction: "equals", value: "pen" }] }],
      skipped: 0,
    },
    {
      name: "a custom header tells apart; user-agent and authorization never do",
      exchanges: [
        ex("t1", "GET", "http://h/me", { headers: [{ key: "X-Tenant", value: "1" }, { key: "User-Agent", value: "a" }, { key: "Authorization", value: "Bearer s1" }] }),
        ex("t2", "GET", "http://h/me", { headers: [{ key: "X-Tenant", value: "2" }, { key: "User-Agent", value: "b" }, { key: "Authorization", value: "Bearer s2" }] }),
      ],
      conditions: [{ header: [{ path: "x-tenant", assertAction: "equals", value: "1" }] }, { header: [{ path: "x-tenant", assertAction: "equals", value: "2" }] }],
      skipped: 0,
    },
    {
      name: "a request without the parameter stays the fallback (fewer conditions)",
      exchanges: [ex("all", "GET", "http://h/s"), ex("filtered", "GET", "http://h/s?q=x")],
      conditions: [{}, { queryParams: [{ path: "q", assertAction: "equals", value: "x" }] }],
      skipped: 0,
    },
    { name: "the same request twice is skipped", exchanges: [ex("a", "GET", "http://h/s?q=1"), ex("again", "GET", "http://h/s?q=1")], conditions: [{}], skipped: 1 },
    { name: "a relative URL is skipped", exchanges: [ex("rel", "GET", "/nohost")], conditions: [], skipped: 1 },
  ];
  it.each(cases)("$name", ({ exchanges, conditions, skipped }) => {
    const plan = planMocks(exchanges);
    expect(plan.mocks.map((m) => {
      const { route: _r, httpMethod: _m, ...rest } = m.draft.http;
      return rest;
    })).toEqual(conditions);
    expect(plan.skipped).toHaveLength(skipped);
  });
  it("names the earlier request a duplicate collides with", () => {
    const plan = planMocks([ex("first", "GET", "http://h/s?q=1"), ex("second", "GET", "http://h/s?q=1")]);
    expect(plan.skipped[0]).toEqual({ index: 1, reason: expect.stringContaining("'first'") });
  });
});
