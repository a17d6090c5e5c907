// The HAR → HTTP mocks mapping: the 20-entry fixture replayed through the
// pure engine gives every recorded answer back byte for byte; conditions,
// duplicates, answers in turn, skipped entries and bad documents.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { buildNamespace, handle } from "@/server/engine/engine";
import { responseBytes } from "@/server/engine/rendered-body";
import { memoryDeps } from "@/server/engine/testing";
import { parseStubBody } from "@/server/transport/stub-body";
import { harToMocks } from "./har";
import { GeneratorInputError } from "./input-error";

const HAR = JSON.parse(readFileSync(path.join(__dirname, "__fixtures__", "tasks-api.har"), "utf8"));
type Obj = Record<string, any>;
const mockOf = (m: { mock: unknown }) => m.mock as Obj;
const entry = (method: string, url: string, status: number, text?: string, more: Obj = {}) => ({
  request: { method, url, headers: more.reqHeaders ?? [], ...(more.postData ? { postData: more.postData } : {}) },
  response: { status, headers: more.headers ?? [{ name: "Content-Type", value: "application/json" }], content: { size: text?.length ?? 0, mimeType: "application/json", ...(text !== undefined ? { text } : {}), ...(more.encoding ? { encoding: more.encoding } : {}) } },
  ...(more.extra ?? {}),
});
const har = (...entries: Obj[]) => ({ log: { version: "1.2", creator: { name: "test", version: "1" }, entries } });

/** Every usable entry of `doc` asked of the engine serving `mocks`, in recording order: status, body bytes and Content-Type as recorded. */
async function replay(doc: Obj, mocks: { mock: Obj }[], pathPrefix = "") {
  const ns = buildNamespace("ns", mocks.map((m, i) => ({ mock: { ...MockInput.parse(m.mock), id: m.mock.id, namespace: "ns" }, sequence: i, createdAt: 0 })));
  expect(ns.rejected).toEqual([]);
  const deps = memoryDeps();
  let replayed = 0;
  for (const [i, e] of (doc.log.entries as Obj[]).entries()) {
    if (e.response.status === 0) continue;
    const url = new URL(e.request.url);
    const headers: Record<string, string[]> = {};
    for (const h of e.request.headers) if (!h.name.startsWith(":")) (headers[h.name.toLowerCase()] ??= []).push(h.value);
    const query: Record<string, string[]> = {};
    for (const [k, v] of url.searchParams) (query[k] ??= []).push(v);
    const body = e.request.postData ? parseStubBody(e.request.postData.text, e.request.postData.mimeType) : undefined;
    const res = await handle(ns, { namespace: "ns", method: e.request.method, path: pathPrefix + url.pathname, headers, query, body }, deps);
    expect(res.matched, `entry ${i}: ${e.request.method} ${e.request.url}`).toBe(true);
    if (!res.matched) continue;
    expect(res.response.status, `entry ${i}`).toBe(e.response.status);
    const sent = responseBytes(res.response).body;
    const recorded = e.response.content.text === undefined ? Buffer.alloc(0) : Buffer.from(e.response.content.text, e.response.content.encoding === "base64" ? "base64" : "utf8");
    expect(Buffer.from(sent).equals(recorded), `entry ${i}: ${String(sent).slice(0, 200)}`).toBe(true);
    const type = e.response.headers.find((h: Obj) => h.name.toLowerCase() === "content-type")?.value;
    const served = Object.entries(res.response.headers).find(([name]) => name.toLowerCase() === "content-type")?.[1][0];
    expect(served, `entry ${i}`).toBe(type);
    replayed++;
  }
  return replayed;
}

describe("harToMocks", () => {
  it("the fixture: one mock per distinct request, conditions where requests of one path differ, and warnings for what it skips or merges", async () => {
    const { mocks, warnings } = await harToMocks(HAR);
    for (const m of mocks) expect(MockInput.safeParse(m.mock).success, m.mock.id).toBe(true);
    expect(mocks.map((m) => m.summary)).toEqual([
      "GET /api/v1/projects → 200",
      "GET /api/v1/tasks → 2 answers in turn (project=1)",
      "GET /api/v1/tasks → 200 (project=2)",
      "GET /api/v1/tasks → 200 (project=1, status=done)",
      "GET /api/v1/tasks/11 → 200",
      "POST /api/v1/tasks → 201 ($.project=1, $.title=Buy milk)",
      "POST /api/v1/tasks → 201 ($.project=2, $.title=Write report)",
      "POST /api/v1/tasks → 422 ($.project=1, $.title=)",
      "PATCH /api/v1/tasks/21 → 200",
      "GET /api/v1/tasks/999 → 404",
      "GET /api/v1/users/me → 200 (authorization present)",
      "GET /api/v1/users/me → 401",
      "GET /avatars/7.png → 200",
      "GET /api/v1/tasks/export → 200 (accept: text/csv)",
      "GET /api/v1/tasks/export → 200 (accept: application/json)",
      "DELETE /api/v1/tasks/22 → 204",
      "GET /api/v1/health → 200",
    ]);
    expect(mocks[0].mock.id).toBe("api.tasks.example-get-api-v1-projects");
    expect(mocks[2].mock).toMatchObject({ id: "api.tasks.example-get-api-v1-tasks-project-2", priority: 2, http: { route: "/api/v1/tasks", httpMethod: "GET", queryParams: [{ path: "project", assertAction: "equals", value: "2" }] } });
    expect(mocks[3].mock.priority).toBe(4);
    expect(mockOf(mocks[1]).oneOf?.responses.map((r: Obj) => (r.payload as Obj).total)).toEqual([2, 3]);
    expect(mockOf(mocks[5]).http?.conditions).toEqual([
      { path: "$.project", assertAction: "equals", value: 1 },
      { path: "$.title", assertAction: "equals", value: "Buy milk" },
    ]);
    // Presence of a credential, not its value, tells the two answers apart.
    expect(mocks[10].mock).toMatchObject({ priority: 1, http: { header: [{ path: "authorization", assertAction: "notEmpty" }] } });
    expect(JSON.stringify(mocks)).not.toContain("eyJhbGciOiJIUzI1NiJ9");
    const projects = mockOf(mocks[0]).response!;
    expect(projects.headers).toEqual({ server: ["nginx/1.25.4"], "content-type": ["application/json; charset=utf-8"], "access-control-allow-origin": ["https://tasks.example"], vary: ["Origin"], etag: ['W/"2f-projects"'], "cache-control": ["private, max-age=0"] });
    expect(projects.payload).toEqual([{ id: 1, name: "Home" }, { id: 2, name: "Work" }]);
    expect(mockOf(mocks[12]).response).toMatchObject({ decode: "base64", headers: { "content-type": ["image/png"] } });
    // Pretty-printed JSON stays text, so the same bytes go out.
    expect(typeof mockOf(mocks[16]).response!.payload).toBe("string");
    expect(mockOf(mocks[15]).response).toEqual({ statusCode: 204, headers: { server: ["nginx/1.25.4"], "access-control-allow-origin": ["https://tasks.example"], vary: ["Origin"] } });
    expect(warnings.map((w) => [w.pointer, w.message])).toEqual([
      ["/log/entries/18", "skipped: aborted (status 0): no answer was recorded"],
      [undefined, expect.stringMatching(/^1 Set-Cookie header\(s\) left out/)],
      ["/log/entries/1", "the same GET /api/v1/tasks?project=1 was answered 2 ways: the 2 recorded answers are served in turn (oneOf)"],
      [undefined, "1 entry repeats an earlier request and answer exactly: one mock serves them"],
    ]);
  });

  it("replaying every entry of the fixture through the engine gives each recorded answer back: status, body bytes, Content-Type", async () => {
    const { mocks } = await harToMocks(HAR, { pathPrefix: "/rec" });
    expect(mocks.every((m) => m.mock.pathPrefix === "/rec")).toBe(true);
    expect(await replay(HAR, mocks, "/rec")).toBe(19);
  });

  it("the same document gives the same ids; idPrefix, serverName and tags are applied", async () => {
    const a = await harToMocks(HAR);
    const b = await harToMocks(structuredClone(HAR));
    expect(b.mocks.map((m) => m.mock.id)).toEqual(a.mocks.map((m) => m.mock.id));
    expect(new Set(a.mocks.map((m) => m.mock.id)).size).toBe(a.mocks.length);
    const c = await harToMocks(HAR, { idPrefix: "rec", serverName: "edge", tags: ["har"] });
    expect(c.mocks[0].mock).toMatchObject({ id: "rec-get-api-v1-projects", serverName: "edge", tags: ["har"] });
  });

  it("skips what a mock cannot stand for, each with a warning at its entry", async () => {
    const doc = har(
      entry("GET", "https://x.test/ok", 200, '{"ok":1}'),
      entry("GET", "wss://x.test/live", 101),
      entry("GET", "https://x.test/socket", 101, undefined, { reqHeaders: [{ name: "Upgrade", value: "websocket" }] }),
      entry("CONNECT", "https://x.test:443/", 200),
      entry("GET", "https://x.test/gone", 0),
      entry("GET", "data:text/plain,hi", 200, "hi"),
      entry("PROPFIND", "https://x.test/dav", 207, "<x/>"),
      entry("GET", "not a url", 200),
    );
    const { mocks, warnings } = await harToMocks(doc);
    expect(mocks).toHaveLength(1);
    expect(warnings.map((w) => `${w.pointer} ${w.message}`)).toEqual([
      "/log/entries/1 skipped: wss: is not HTTP(S)",
      "/log/entries/2 skipped: a WebSocket upgrade: HTTP mocks do not speak WebSocket (see the socket generator)",
      "/log/entries/3 skipped: a CONNECT (a proxy tunnel) is no request a mock answers",
      "/log/entries/4 skipped: aborted (status 0): no answer was recorded",
      "/log/entries/5 skipped: data: is not HTTP(S)",
      "/log/entries/6 skipped: the method PROPFIND is not one a mock can have",
      '/log/entries/7 skipped: "not a url" is not a URL',
    ]);
  });

  it("bodies: recorded text that reads like a template goes out as base64, non-UTF-8 text as bytes; an unrecorded body is a warning", async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9]).toString("base64");
    const doc = har(
      entry("GET", "https://x.test/price", 200, '{"hint":"write {{ $.queryParams.q }} or $.req.id"}'),
      entry("GET", "https://x.test/latin", 200, latin1, { encoding: "base64", headers: [{ name: "Content-Type", value: "text/plain; charset=iso-8859-1" }] }),
      entry("GET", "https://x.test/lost", 200, undefined, { headers: [] }),
      entry("GET", "https://x.test/:odd/*", 200, "x", { headers: [{ name: "Bad Header", value: "1" }, { name: "X-Echo", value: "$.req.id" }] }),
    );
    doc.log.entries[2].response.content.size = 120;
    const { mocks, warnings } = await harToMocks(doc);
    expect(mockOf(mocks[0]).response).toMatchObject({ decode: "base64", payload: Buffer.from('{"hint":"write {{ $.queryParams.q }} or $.req.id"}').toString("base64") });
    expect(mockOf(mocks[1]).response).toMatchObject({ decode: "base64", payload: latin1 });
    expect(mockOf(mocks[2]).response).toEqual({ statusCode: 200 });
    expect(mockOf(mocks[3]).http?.route).toBe("/%3Aodd/%2A");
    expect(warnings.map((w) => w.pointer)).toEqual(["/log/entries/0/response/content/text", "/log/entries/2/response/content", "/log/entries/3/response/headers/0", "/log/entries/3/response/headers/1"]);
    expect(await replay(doc, mocks)).toBe(4);
  });

  it("form bodies and raw text bodies are conditions too; requests that differ only in an absent value fall back to the plainer mock", async () => {
    const form = (text: string) => ({ reqHeaders: [{ name: "Content-Type", value: "application/x-www-form-urlencoded" }], postData: { mimeType: "application/x-www-form-urlencoded", text } });
    const raw = (text: string) => ({ reqHeaders: [{ name: "Content-Type", value: "text/plain" }], postData: { mimeType: "text/plain", text } });
    const doc = har(
      entry("POST", "https://x.test/login", 200, '{"ok":true}', form("user=ann&remember=1")),
      entry("POST", "https://x.test/login", 403, '{"ok":false}', form("user=bob")),
      entry("POST", "https://x.test/echo", 200, '"one"', raw("one")),
      entry("POST", "https://x.test/echo", 200, '"two"', raw("two")),
      entry("GET", "https://x.test/list", 200, "[1]"),
      entry("GET", "https://x.test/list?page=2", 200, "[2]"),
    );
    const { mocks } = await harToMocks(doc);
    expect(mocks.map((m) => [mockOf(m).http?.conditions ?? mockOf(m).http?.queryParams, m.mock.priority])).toEqual([
      [[{ path: "$.user", assertAction: "equals", value: "ann" }, { path: "$.remember", assertAction: "equals", value: "1" }], 4],
      [[{ path: "$.user", assertAction: "equals", value: "bob" }], 2],
      [[{ path: "$", assertAction: "equals", value: "one" }], 2],
      [[{ path: "$", assertAction: "equals", value: "two" }], 2],
      [undefined, undefined],
      [[{ path: "page", assertAction: "equals", value: "2" }], 2],
    ]);
    expect(await replay(doc, mocks)).toBe(6);
    // A page the recording never asked for gets the plain list.
    const ns = buildNamespace("ns", mocks.map((m, i) => ({ mock: { ...MockInput.parse(m.mock), id: m.mock.id, namespace: "ns" }, sequence: i, createdAt: 0 })));
    const other = await handle(ns, { namespace: "ns", method: "GET", path: "/list", headers: {}, query: { page: ["9"] }, body: undefined }, memoryDeps());
    expect(other.matched && String(responseBytes(other.response).body)).toBe("[1]");
  });

  it.each([
    [{}, "/log"],
    [{ log: { entries: "none" } }, "/log/entries"],
    [har(entry("GET", "https://x.test/", 200), { request: { method: "GET", url: "https://x.test/" } }), "/log/entries/1/response"],
    [har({ request: { method: "GET", url: "https://x.test/", headers: [{ name: "a" }] }, response: { status: 200 } }), "/log/entries/0/request/headers/0/value"],
    [har(entry("GET", "https://x.test/", "200" as never)), "/log/entries/0/response/status"],
    [har(entry("GET", "https://x.test/", 0)), "/log/entries"],
    ["just text", ""],
  ])("a document that is not a usable HAR is refused with where: %j", async (doc, pointer) => {
    const err = await harToMocks(doc).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GeneratorInputError);
    expect((err as GeneratorInputError).location.pointer).toBe(pointer);
  });
});
