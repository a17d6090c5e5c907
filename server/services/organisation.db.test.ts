import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as folders from "@/app/api/v1/mock-folders/route";
import * as folderOne from "@/app/api/v1/mock-folders/[id]/route";
import * as folderMove from "@/app/api/v1/mock-folders/[id]/move/route";
import * as mockLogs from "@/app/api/v1/mocks/[id]/logs/route";
import * as mockOne from "@/app/api/v1/mocks/[id]/route";
import * as preview from "@/app/api/v1/mocks/preview/route";
import * as mocks from "@/app/api/v1/mocks/route";
import * as tags from "@/app/api/v1/tags/route";
import * as undefinedAll from "@/app/api/v1/undefined-requests/all/route";
import * as undefinedCreateMock from "@/app/api/v1/undefined-requests/[id]/create-mock/route";
import * as undefinedIgnore from "@/app/api/v1/undefined-requests/[id]/ignore/route";
import * as undefinedList from "@/app/api/v1/undefined-requests/route";
import { db } from "@/server/db/client";
import { invalidateNamespace, stopListening } from "@/server/serving/mock-index";
import { MAX_CAPTURE_BYTES, recordRequestLogs, trimRequestLogs, TRUNCATED_KEY } from "@/server/services/request-logs";
import { writeStore } from "@/server/services/stores";
import { recordUndefinedRequests, signatureOf } from "@/server/services/undefined-requests";
import { call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();
afterAll(() => stopListening());

// "org" is where the editor works; "other" belongs to someone else; the viewer can only read "org".
let editor = "";
let viewer = "";
let stranger = "";
let orgId = "";
let otherId = "";
const ORG = "?namespace=org";
const OTHER = "?namespace=other";

beforeAll(async () => {
  const e = await makeUser();
  const v = await makeUser();
  const s = await makeUser();
  orgId = (await makeNamespace("org", { [e.user.id]: "editor", [v.user.id]: "viewer" })).id;
  otherId = (await makeNamespace("other", { [s.user.id]: "editor" })).id;
  editor = await sessionCookie(e.user.id);
  viewer = await sessionCookie(v.user.id);
  stranger = await sessionCookie(s.user.id);
});

const saveMock = async (body: unknown, ns = ORG, cookie = editor) => {
  const res = await call(mocks.POST, `/api/v1/mocks${ns}`, { method: "POST", cookie, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.mock.id as string;
};

function expectValidation(res: { status: number; body: any }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe("validation");
  expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
}

describe("mock folders", () => {
  const create = (body: unknown, ns = ORG, cookie = editor) => call(folders.POST, `/api/v1/mock-folders${ns}`, { method: "POST", cookie, body });
  const put = (id: string, body: unknown, ns = ORG, cookie = editor) => call(folderOne.PUT, `/api/v1/mock-folders/x${ns}`, { method: "PUT", cookie, body, params: { id } });
  const move = (id: string, body: unknown, ns = ORG, cookie = editor) => call(folderMove.PATCH, `/api/v1/mock-folders/x/move${ns}`, { method: "PATCH", cookie, body, params: { id } });
  const remove = (id: string, ns = ORG, cookie = editor) => call(folderOne.DELETE, `/api/v1/mock-folders/x${ns}`, { method: "DELETE", cookie, params: { id } });
  const list = async (ns = ORG, cookie = editor) => (await call(folders.GET, `/api/v1/mock-folders${ns}`, { cookie })).body as { folders: any[]; count: number };

  it("creates folders (last among siblings) and lists them flat with parentId, position and mockCount", async () => {
    const a = await create({ name: " Payments " });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ name: "Payments", parentId: null, position: 0, mockCount: 0 });
    expect(new Date(a.body.createdAt).toISOString()).toBe(a.body.createdAt);
    const b = await create({ name: "Users" });
    expect(b.body.position).toBe(1);
    const child = await create({ name: "Refunds", parentId: a.body.id });
    expect(child.body).toMatchObject({ parentId: a.body.id, position: 0 });
    await saveMock({ http: { route: "/pay", httpMethod: "POST" }, folderId: a.body.id });
    const listed = await list();
    expect(listed.count).toBe(listed.folders.length);
    expect(listed.folders.find((f) => f.id === a.body.id)).toMatchObject({ name: "Payments", mockCount: 1 });
    expect(listed.folders.find((f) => f.id === child.body.id)).toMatchObject({ parentId: a.body.id, mockCount: 0 });
    // Another namespace sees none of them.
    expect((await list(OTHER, stranger)).folders).toEqual([]);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    expectValidation(await create({ name: "" }), "name");
    expectValidation(await create({ name: "   " }), "name");
    expectValidation(await create({ name: "x".repeat(101) }), "name");
    expectValidation(await create({ name: "ok", parentId: "not-a-uuid" }), "parentId");
    expectValidation(await create({ name: "ok", colour: "red" }), "");
    expectValidation(await create({}), "name");
    expectValidation(await put("not-a-uuid", { name: "x" }), "id");
    expectValidation(await move(randomUUID(), { parentId: null }), "position");
    expectValidation(await move(randomUUID(), { parentId: null, position: -1 }), "position");
  });

  it("keeps sibling names unique (ignoring case): 409, while the same name under another parent is fine", async () => {
    const top = await create({ name: "Unique" });
    const clash = await create({ name: "unique" });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: "conflict", details: [{ field: "name" }] });
    expect((await create({ name: "Unique", parentId: top.body.id })).status).toBe(201);
    const sibling = await create({ name: "Sibling" });
    expect((await put(sibling.body.id, { name: "UNIQUE" })).status).toBe(409);
    // Renaming a folder to another spelling of its own name is not a clash.
    expect((await put(top.body.id, { name: "UNIQUE" })).body).toMatchObject({ name: "UNIQUE" });
  });

  it("renames and reparents with PUT; refuses cycles (400) and parents of another namespace (404)", async () => {
    const root = await create({ name: "Root-put" });
    const mid = await create({ name: "Mid", parentId: root.body.id });
    const leaf = await create({ name: "Leaf", parentId: mid.body.id });
    const renamed = await put(mid.body.id, { name: "Middle" });
    expect(renamed.body).toMatchObject({ id: mid.body.id, name: "Middle", parentId: root.body.id });
    expectValidation(await put(root.body.id, { parentId: leaf.body.id }), "parentId");
    expectValidation(await put(root.body.id, { parentId: root.body.id }), "parentId");
    const foreign = await create({ name: "Theirs" }, OTHER, stranger);
    expect((await put(leaf.body.id, { parentId: foreign.body.id })).status).toBe(404);
    expect((await put(foreign.body.id, { name: "Mine now" })).status).toBe(404);
    expect((await put(randomUUID(), { name: "ghost" })).status).toBe(404);
    const toTop = await put(leaf.body.id, { parentId: null });
    expect(toTop.body).toMatchObject({ parentId: null });
    const tops = (await list()).folders.filter((f) => f.parentId === null);
    expect(toTop.body.position).toBe(Math.max(...tops.map((f) => f.position)));
  });

  it("moves: reorders siblings 0..n-1, reparents, refuses cycles and foreign parents", async () => {
    const parent = await create({ name: "Ordered" });
    const kids: string[] = [];
    for (const name of ["one", "two", "three"]) kids.push((await create({ name, parentId: parent.body.id })).body.id);
    const moved = await move(kids[2], { position: 0 });
    expect(moved.status).toBe(200);
    const order = async () =>
      (await list()).folders
        .filter((f) => f.parentId === parent.body.id)
        .sort((a, b) => a.position - b.position)
        .map((f) => [f.name, f.position]);
    expect(await order()).toEqual([["three", 0], ["one", 1], ["two", 2]]);
    await move(kids[2], { position: 99 });
    expect(await order()).toEqual([["one", 0], ["two", 1], ["three", 2]]);
    // Into a sibling's subtree, then back to the top level.
    const under = await move(kids[0], { parentId: kids[1], position: 0 });
    expect(under.body).toMatchObject({ parentId: kids[1], position: 0 });
    expectValidation(await move(kids[1], { parentId: kids[0], position: 0 }), "parentId");
    expectValidation(await move(parent.body.id, { parentId: kids[0], position: 0 }), "parentId");
    const foreign = await create({ name: "Foreign parent" }, OTHER, stranger);
    expect((await move(kids[1], { parentId: foreign.body.id, position: 0 })).status).toBe(404);
    expect((await move(foreign.body.id, { parentId: null, position: 0 })).status).toBe(404);
    const top = await move(kids[0], { parentId: null, position: 0 });
    expect(top.body).toMatchObject({ parentId: null, position: 0 });
    const tops = (await list()).folders.filter((f) => f.parentId === null).map((f) => f.position).sort((a, b) => a - b);
    expect(tops).toEqual(tops.map((_, i) => i));
    // A name clash at the destination is a 409.
    await create({ name: "Clash" });
    const inner = await create({ name: "clash", parentId: parent.body.id });
    expect((await move(inner.body.id, { parentId: null, position: 0 })).status).toBe(409);
  });

  it("deletes a folder with its subfolders; their mocks move to the deleted folder's parent", async () => {
    const top = await create({ name: "Keep" });
    const doomed = await create({ name: "Doomed", parentId: top.body.id });
    const sub = await create({ name: "Doomed child", parentId: doomed.body.id });
    const subsub = await create({ name: "Deeper", parentId: sub.body.id });
    const m1 = await saveMock({ http: { route: "/d1" }, folderId: doomed.body.id });
    const m2 = await saveMock({ http: { route: "/d2" }, folderId: subsub.body.id });
    const binned = await saveMock({ http: { route: "/d3" }, folderId: sub.body.id });
    await db().mock.update({ where: { namespaceId_id: { namespaceId: orgId, id: binned } }, data: { deletedAt: new Date() } });
    const res = await remove(doomed.body.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 3, movedMocks: 3, movedTo: top.body.id });
    const ids = new Set((await list()).folders.map((f) => f.id));
    for (const gone of [doomed, sub, subsub]) expect(ids.has(gone.body.id)).toBe(false);
    for (const id of [m1, m2, binned]) {
      const got = await call(mockOne.GET, `/api/v1/mocks/x${ORG}`, { cookie: editor, params: { id } });
      expect(got.body.folderId).toBe(top.body.id);
      expect((await db().mock.findFirstOrThrow({ where: { namespaceId: orgId, id } })).folderId).toBe(top.body.id);
    }
    expect((await list()).folders.find((f) => f.id === top.body.id)?.mockCount).toBe(2);
    // A top-level folder's mocks go to the top level, and leave the definition without folderId.
    const res2 = await remove(top.body.id);
    expect(res2.body).toEqual({ deleted: 1, movedMocks: 3, movedTo: null });
    const got = await call(mockOne.GET, `/api/v1/mocks/x${ORG}`, { cookie: editor, params: { id: m1 } });
    expect(got.body.folderId ?? null).toBeNull();
    expect(got.body.version).toBe(1);
    expect((await remove(top.body.id)).status).toBe(404);
  });

  it("another namespace's folder is not found; a viewer can list but not change", async () => {
    const foreign = await create({ name: "Not yours" }, OTHER, stranger);
    expect((await remove(foreign.body.id)).status).toBe(404);
    expect((await call(folders.GET, `/api/v1/mock-folders${OTHER}`, { cookie: editor })).status).toBe(404);
    const mine = await create({ name: "Viewer target" });
    expect((await call(folders.GET, `/api/v1/mock-folders${ORG}`, { cookie: viewer })).status).toBe(200);
    expect((await create({ name: "v" }, ORG, viewer)).status).toBe(403);
    expect((await put(mine.body.id, { name: "v" }, ORG, viewer)).status).toBe(403);
    expect((await move(mine.body.id, { position: 0 }, ORG, viewer)).status).toBe(403);
    expect((await remove(mine.body.id, ORG, viewer)).status).toBe(403);
    expect((await call(folders.GET, "/api/v1/mock-folders?namespace=org")).status).toBe(401);
  });
});

describe("tags", () => {
  const create = (body: unknown, cookie = editor, ns = "?namespace=tagged") => call(tags.POST, `/api/v1/tags${ns}`, { method: "POST", cookie, body });
  const list = async (cookie = editor) => call(tags.GET, "/api/v1/tags?namespace=tagged", { cookie });
  let tagViewer = "";

  beforeAll(async () => {
    const e = await db().user.findFirstOrThrow({ where: { memberships: { some: { namespaceId: orgId, role: "editor" } } } });
    const v = await makeUser();
    await makeNamespace("tagged", { [e.id]: "editor", [v.user.id]: "viewer" });
    tagViewer = await sessionCookie(v.user.id);
  });

  it("lists created tags and tags of active mocks, with colours and counts", async () => {
    expect((await list()).body).toEqual({ tags: [], count: 0 });
    expect((await create({ name: "billing", color: "#1f8a70" })).body).toEqual({ name: "billing", color: "#1f8a70", mockCount: 0 });
    expect((await create({ name: "empty" })).status).toBe(201);
    await saveMock({ http: { route: "/t1" }, tags: ["billing", "v2", "v2"] }, "?namespace=tagged");
    await saveMock({ http: { route: "/t2" }, tags: ["v2"] }, "?namespace=tagged");
    const binned = await saveMock({ http: { route: "/t3" }, tags: ["old"] }, "?namespace=tagged");
    await db().mock.updateMany({ where: { id: binned }, data: { deletedAt: new Date() } });
    await saveMock({ http: { route: "/t4" }, tags: ["elsewhere"] }, ORG);
    const res = await list();
    expect(res.body).toEqual({
      count: 3,
      tags: [
        { name: "billing", color: "#1f8a70", mockCount: 1 },
        { name: "empty", color: null, mockCount: 0 },
        { name: "v2", color: null, mockCount: 2 },
      ],
    });
    // A tag only used by mocks can be created to give it a colour; then it exists.
    expect((await create({ name: "v2", color: "#abc" })).body).toEqual({ name: "v2", color: "#abc", mockCount: 2 });
    expect((await create({ name: "v2" })).status).toBe(409);
  });

  it("refuses bad input (400 naming the field), viewers (403) and strangers (404)", async () => {
    expectValidation(await create({ name: "" }), "name");
    expectValidation(await create({ name: "a,b" }), "name");
    expectValidation(await create({ name: " padded" }), "name");
    expectValidation(await create({ name: "x".repeat(101) }), "name");
    expectValidation(await create({ name: "ok", color: "red" }), "color");
    expect((await list(tagViewer)).status).toBe(200);
    expect((await create({ name: "nope" }, tagViewer)).status).toBe(403);
    expect((await list(stranger)).status).toBe(404);
  });
});

describe("recordUndefinedRequests", () => {
  const item = (over: Partial<Parameters<typeof recordUndefinedRequests>[0][number]> = {}) => ({
    namespaceId: orgId,
    method: "get",
    path: "/missing",
    query: {},
    headers: { accept: ["*/*"] },
    body: undefined as unknown,
    ...over,
  });
  const rowsOf = (namespaceId: string) => db().undefinedRequest.findMany({ where: { namespaceId }, orderBy: { signature: "asc" } });

  it("signs a request by method, path and sorted query keys", () => {
    expect(signatureOf({ method: "get", path: "/a", query: { z: ["1"], b: ["2"] } })).toBe("GET /a?b&z");
    expect(signatureOf({ method: "POST", path: "/a", query: {} })).toBe("POST /a");
    expect(signatureOf({ protocol: "mcp", method: "POST", path: "/", query: {} })).toBe("mcp:POST /");
    const long = signatureOf({ method: "GET", path: `/${"x".repeat(5000)}`, query: {} });
    expect(long.length).toBeLessThanOrEqual(512);
    expect(long).not.toBe(signatureOf({ method: "GET", path: `/${"x".repeat(4999)}y`, query: {} }));
  });

  it("upserts a batch in one statement: same signatures fold into one row and count up, the latest is the sample", async () => {
    await db().undefinedRequest.deleteMany({});
    await recordUndefinedRequests([
      item({ query: { page: ["1"] }, body: { n: 1 } }),
      item({ query: { page: ["2"] }, body: { n: 2 } }),
      item({ query: { status: ["open"] } }),
      item({ method: "POST", body: "raw text" }),
      item({ namespaceId: otherId }),
      item({ namespaceId: randomUUID() }), // a namespace that is gone: skipped, not a failed batch
    ]);
    const rows = await rowsOf(orgId);
    expect(rows.map((r) => [r.signature, r.count])).toEqual([
      ["GET /missing?page", 2],
      ["GET /missing?status", 1],
      ["POST /missing", 1],
    ]);
    const paged = rows[0];
    expect(paged).toMatchObject({ method: "GET", path: "/missing", query: { page: ["2"] }, body: { n: 2 }, headers: { accept: ["*/*"] }, ignored: false, protocol: "http" });
    expect(rows[1].body).toBeNull();
    expect(rows[2].body).toBe("raw text");
    expect(await db().undefinedRequest.count({ where: { namespaceId: otherId } })).toBe(1);
    expect(paged.firstSeenAt.getTime()).toBe(paged.lastSeenAt.getTime());
    expect(Math.abs(paged.lastSeenAt.getTime() - Date.now())).toBeLessThan(60_000);

    await new Promise((r) => setTimeout(r, 20));
    await recordUndefinedRequests([item({ query: { page: ["3"] }, body: null }), item({ query: { page: ["4"] } }), item({ query: { page: ["5"] } })]);
    const again = await db().undefinedRequest.findUniqueOrThrow({ where: { id: paged.id } });
    expect(again.count).toBe(5);
    expect(again.firstSeenAt.getTime()).toBe(paged.firstSeenAt.getTime());
    expect(again.lastSeenAt.getTime()).toBeGreaterThan(paged.lastSeenAt.getTime());
    expect(again.query).toEqual({ page: ["5"] });
    await expect(recordUndefinedRequests([])).resolves.toBeUndefined();
  });

  it("bounds and cleans hostile input instead of failing the batch", async () => {
    await db().undefinedRequest.deleteMany({});
    let deep: unknown = "bottom";
    for (let i = 0; i < 500; i++) deep = { d: deep };
    await recordUndefinedRequests([
      item({ path: "/big", body: "b".repeat(200_000), headers: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`x-h${i}`, ["v".repeat(4000)]])) }),
      item({ path: "/nul\u0000", query: { "k\u0000": ["\u0000"] }, body: { "a\u0000": "\ud800 lone" }, headers: { "x-nul": ["a\u0000b"] } }),
      item({ path: "/deep", body: deep }),
      item({ path: `/${"p".repeat(20_000)}` }),
    ]);
    const rows = await rowsOf(orgId);
    expect(rows).toHaveLength(4);
    const big = rows.find((r) => r.path === "/big")!;
    expect(typeof big.body).toBe("string");
    expect((big.body as string).length).toBeLessThan(MAX_CAPTURE_BYTES + 100);
    expect(big.body as string).toMatch(/…\[truncated: 200000 bytes in all\]$/);
    const headers = big.headers as Record<string, string[]>;
    expect(JSON.stringify(headers).length).toBeLessThan(MAX_CAPTURE_BYTES + 200);
    expect(headers[TRUNCATED_KEY][0]).toMatch(/entries .* dropped/);
    const nul = rows.find((r) => r.path.startsWith("/nul"))!;
    expect(nul.path).toBe("/nul\ufffd");
    expect(nul.body).toEqual({ "a\ufffd": "\ufffd lone" });
    expect(nul.headers).toEqual({ "x-nul": ["a\ufffdb"] });
    expect(nul.query).toEqual({ "k\ufffd": ["\ufffd"] });
    expect(JSON.stringify(rows.find((r) => r.path === "/deep")!.body)).toContain("[nested too deep]");
    expect(rows.find((r) => r.path.startsWith("/ppp"))!.signature.length).toBeLessThanOrEqual(512);
  });
});

describe("undefined requests API", () => {
  const listUrl = (q = "") => `/api/v1/undefined-requests${ORG}${q}`;
  const list = (q = "", cookie = editor) => call(undefinedList.GET, listUrl(q), { cookie });
  const ignore = (id: string, body?: unknown, cookie = editor, ns = ORG) => call(undefinedIgnore.PATCH, `/api/v1/undefined-requests/x/ignore${ns}`, { method: "PATCH", cookie, body, params: { id } });
  const createMock = (id: string, body?: unknown, cookie = editor, ns = ORG) => call(undefinedCreateMock.POST, `/api/v1/undefined-requests/x/create-mock${ns}`, { method: "POST", cookie, body, params: { id } });
  const idOf = async (path: string, namespaceId = orgId) => (await db().undefinedRequest.findFirstOrThrow({ where: { namespaceId, path } })).id;
  const seed = (namespaceId: string, paths: string[], method = "GET") => recordUndefinedRequests(paths.map((path) => ({ namespaceId, method, path, query: {}, headers: {}, body: undefined })));

  beforeAll(async () => {
    await db().undefinedRequest.deleteMany({});
    for (const p of ["/u/1", "/u/2", "/u/3", "/orders"]) await seed(orgId, [p]);
    await seed(orgId, ["/u/2"]);
    await seed(otherId, ["/foreign"]);
  });

  it("lists paged, most recently seen first, with search and includeIgnored", async () => {
    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 4, limit: 50, offset: 0 });
    expect(all.body.undefinedRequests[0]).toMatchObject({ path: "/u/2", method: "GET", count: 2, ignored: false, query: {}, headers: {}, body: null });
    expect(Object.keys(all.body.undefinedRequests[0]).sort()).toEqual(["body", "count", "firstSeenAt", "headers", "id", "ignored", "lastSeenAt", "method", "path", "protocol", "query"]);
    const page = await list("&limit=2&offset=1");
    expect(page.body).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(page.body.undefinedRequests).toHaveLength(2);
    expect((await list("&search=ORDER")).body.undefinedRequests.map((r: { path: string }) => r.path)).toEqual(["/orders"]);
    expectValidation(await list("&limit=0"), "limit");
    expectValidation(await list("&limit=501"), "limit");
    expectValidation(await list("&offset=-1"), "offset");
    expectValidation(await list("&includeIgnored=maybe"), "includeIgnored");
    expect((await list("", viewer)).status).toBe(200);
  });

  it("ignores (default) and un-ignores one; ignored rows are hidden unless asked for", async () => {
    const id = await idOf("/u/3");
    const res = await ignore(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, ignored: true });
    expect((await list()).body.total).toBe(3);
    expect((await list("&includeIgnored=true")).body.total).toBe(4);
    expect((await ignore(id, { ignored: false })).body.ignored).toBe(false);
    expect((await list()).body.total).toBe(4);
    expect((await ignore(id, { ignored: true })).body.ignored).toBe(true);
    // Still counted while ignored.
    await seed(orgId, ["/u/3"]);
    expect((await db().undefinedRequest.findUniqueOrThrow({ where: { id } })).count).toBe(2);
    expectValidation(await ignore(id, { ignored: "yes" }), "ignored");
    expectValidation(await ignore("nope"), "id");
    expect((await ignore(await idOf("/foreign", otherId))).status).toBe(404);
    expect((await ignore(id, undefined, viewer)).status).toBe(403);
  });

  it("creates a 200 {} mock from one through saveMock, then deletes the captured request", async () => {
    const id = await idOf("/u/1");
    const res = await createMock(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ overwritten: false, mock: { namespace: "org", useCounter: 0 } });
    const mock = await call(mockOne.GET, `/api/v1/mocks/x${ORG}`, { cookie: editor, params: { id: res.body.mock.id } });
    expect(mock.body).toMatchObject({ http: { route: "/u/1", httpMethod: "GET" }, response: { statusCode: 200, payload: {} }, version: 1 });
    expect(await db().undefinedRequest.findUnique({ where: { id } })).toBeNull();
    expect((await createMock(id)).status).toBe(404);
    invalidateNamespace(orgId);
    const seen = await call(preview.GET, `/api/v1/mocks/preview${ORG}&path=/u/1`, { cookie: editor });
    expect(seen.body).toMatchObject({ matched: true, mock: { id: res.body.mock.id, summary: "GET /u/1" }, response: { status: 200, body: {} } });
  });

  it("takes an id, a response and tags from the body; a duplicate is a 409 and keeps the captured request", async () => {
    const id = await idOf("/orders");
    const res = await createMock(id, { id: "orders-list", tags: ["captured"], response: { statusCode: 201, payload: { ok: true } } });
    expect(res.body).toMatchObject({ mock: { id: "orders-list" } });
    const mock = await call(mockOne.GET, `/api/v1/mocks/x${ORG}`, { cookie: editor, params: { id: "orders-list" } });
    expect(mock.body).toMatchObject({ tags: ["captured"], response: { statusCode: 201, payload: { ok: true } } });
    await seed(orgId, ["/orders"]);
    const again = await idOf("/orders");
    const dup = await createMock(again);
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: "duplicate_entity", existing: { id: "orders-list" } });
    expect(await db().undefinedRequest.findUnique({ where: { id: again } })).not.toBeNull();
  });

  it("refuses bad bodies, methods a mock cannot hold, foreign ids and viewers", async () => {
    await seed(orgId, ["/dav"], "PROPFIND");
    const dav = await idOf("/dav");
    expectValidation(await createMock(dav), "http.httpMethod");
    expect(await db().undefinedRequest.findUnique({ where: { id: dav } })).not.toBeNull();
    const id = await idOf("/u/2");
    expectValidation(await createMock(id, { response: { statusCode: "200" } }), "response.statusCode");
    expectValidation(await createMock(id, { id: "has space" }), "id");
    expectValidation(await createMock(id, { extra: 1 }), "");
    expect((await createMock(await idOf("/foreign", otherId))).status).toBe(404);
    expect((await createMock(id, undefined, viewer)).status).toBe(403);
    expect((await createMock(id, undefined, stranger)).status).toBe(404);
  });

  it("deletes selected ones (only this namespace's) and clears all; viewers cannot", async () => {
    const foreign = await idOf("/foreign", otherId);
    const id = await idOf("/u/2");
    expect((await call(undefinedList.DELETE, listUrl(), { method: "DELETE", cookie: viewer, body: { ids: [id] } })).status).toBe(403);
    const res = await call(undefinedList.DELETE, listUrl(), { method: "DELETE", cookie: editor, body: { ids: [id, foreign, randomUUID()] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 1 });
    expect(await db().undefinedRequest.findUnique({ where: { id: foreign } })).not.toBeNull();
    expectValidation(await call(undefinedList.DELETE, listUrl(), { method: "DELETE", cookie: editor, body: { ids: [] } }), "ids");
    expectValidation(await call(undefinedList.DELETE, listUrl(), { method: "DELETE", cookie: editor, body: { ids: ["x"] } }), "ids.0");
    expectValidation(await call(undefinedList.DELETE, listUrl(), { method: "DELETE", cookie: editor }), "ids");
    const left = await db().undefinedRequest.count({ where: { namespaceId: orgId } });
    expect(left).toBeGreaterThan(0);
    expect((await call(undefinedAll.DELETE, `/api/v1/undefined-requests/all${ORG}`, { method: "DELETE", cookie: viewer })).status).toBe(403);
    const cleared = await call(undefinedAll.DELETE, `/api/v1/undefined-requests/all${ORG}`, { method: "DELETE", cookie: editor });
    expect(cleared.body).toEqual({ deleted: left });
    expect(await db().undefinedRequest.count({ where: { namespaceId: orgId } })).toBe(0);
    expect(await db().undefinedRequest.count({ where: { namespaceId: otherId } })).toBe(1);
  });
});

describe("request logs", () => {
  const logs = (id: string, q = "", cookie = editor, ns = ORG) => call(mockLogs.GET, `/api/v1/mocks/x/logs${ns}${q}`, { cookie, params: { id } });
  const row = (mockId: string, at: number, over: Record<string, unknown> = {}) => ({
    namespaceId: orgId,
    mockId,
    calledAt: new Date(Date.UTC(2026, 0, 1, 0, 0, at)),
    method: "POST",
    url: `/logged?n=${at}`,
    headers: { "content-type": ["application/json"] },
    query: { n: [String(at)] },
    body: { n: at },
    status: 200,
    durationMs: 1.5,
    ...over,
  });

  it("records batches and returns the spec's shape, newest first, limited", async () => {
    const id = await saveMock({ id: "logged", http: { route: "/logged", httpMethod: "POST" } });
    expect(await recordRequestLogs([row(id, 1), row(id, 3), row(id, 2, { body: undefined }), row("someone-else", 4)])).toBe(4);
    expect(await recordRequestLogs([])).toBe(0);
    const res = await logs(id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      requests: [
        { calledAt: "2026-01-01T00:00:03.000Z", req: { header: { "content-type": ["application/json"] }, body: { n: 3 }, queryParam: { n: ["3"] }, url: "/logged?n=3" } },
        { calledAt: "2026-01-01T00:00:02.000Z", req: { header: { "content-type": ["application/json"] }, body: null, queryParam: { n: ["2"] }, url: "/logged?n=2" } },
        { calledAt: "2026-01-01T00:00:01.000Z", req: { header: { "content-type": ["application/json"] }, body: { n: 1 }, queryParam: { n: ["1"] }, url: "/logged?n=1" } },
      ],
    });
    expect((await logs(id, "&limit=1")).body.requests.map((r: { calledAt: string }) => r.calledAt)).toEqual(["2026-01-01T00:00:03.000Z"]);
    expectValidation(await logs(id, "&limit=0"), "limit");
    expectValidation(await logs(id, "&limit=1001"), "limit");
    expectValidation(await logs("has space"), "id");
    expect((await logs("no-such-mock")).status).toBe(404);
    expect((await logs(id, "", viewer)).status).toBe(200);
    // The same mock id in another namespace is another mock.
    expect((await logs(id, "", stranger, OTHER)).status).toBe(404);
    expect((await logs(id, "", stranger)).status).toBe(404);
  });

  it("bounds hostile rows, and trims each mock to its newest N", async () => {
    const id = await saveMock({ id: "trimmed", http: { route: "/trimmed" } });
    await recordRequestLogs([row(id, 10, { body: "x".repeat(100_000), headers: { "x-nul": ["\u0000"] }, url: "/t\u0000" })]);
    const [big] = (await logs(id)).body.requests;
    expect(big.req.body).toMatch(/…\[truncated: 100000 bytes in all\]$/);
    expect(big.req.header).toEqual({ "x-nul": ["\ufffd"] });
    expect(big.req.url).toBe("/t\ufffd");
    await recordRequestLogs([row(id, 11), row(id, 12), row(id, 13)]);
    const before = await db().requestLog.count();
    const removed = await trimRequestLogs(2);
    // "trimmed" had 4 rows, "logged" 3: two and one go; "someone-else" (1 row) keeps its row.
    expect(removed).toBe(3);
    expect(await db().requestLog.count()).toBe(before - 3);
    expect((await logs(id)).body.requests.map((r: { calledAt: string }) => r.calledAt)).toEqual(["2026-01-01T00:00:13.000Z", "2026-01-01T00:00:12.000Z"]);
    expect(await trimRequestLogs()).toBe(0);
    await expect(trimRequestLogs(-1)).rejects.toThrow(RangeError);
  });
});

describe("preview", () => {
  const NS = "?namespace=preview";
  let nsId = "";
  const get = (q: string, cookie = editor) => call(preview.GET, `/api/v1/mocks/preview${NS}&${q}`, { cookie });
  const post = (body: unknown, cookie = editor) => call(preview.POST, `/api/v1/mocks/preview${NS}`, { method: "POST", cookie, body });
  const countOf = async (id: string) => (await db().mock.findFirstOrThrow({ where: { namespaceId: nsId, id } })).useCounter;

  beforeAll(async () => {
    const e = await db().user.findFirstOrThrow({ where: { memberships: { some: { namespaceId: orgId, role: "editor" } } } });
    const v = await db().user.findFirstOrThrow({ where: { memberships: { some: { namespaceId: orgId, role: "viewer" } } } });
    nsId = (await makeNamespace("preview", { [e.id]: "editor", [v.id]: "viewer" })).id;
    await saveMock({ id: "user", http: { route: "/users/:id", httpMethod: "GET" }, response: { payload: { id: "$.pathParam.id" }, headers: { "x-kind": "user" } } }, NS);
    await saveMock({ id: "admin", priority: 5, http: { route: "/users/:id", httpMethod: "GET", header: [{ path: "x-role", assertAction: "equals", value: "admin" }] }, response: { statusCode: 202, payload: "admin" } }, NS);
    await saveMock({ id: "limited", useLimiter: 1, http: { route: "/once", httpMethod: "GET" }, response: { payload: "once" } }, NS);
    await saveMock({ id: "extract", http: { route: "/remember", httpMethod: "POST" }, extract: { gStore: { last: "$.req.name" } }, response: { payload: { last: "$.gS.last", before: "$.gS.kept" } } }, NS);
    await saveMock({ id: "turns", http: { route: "/turns" }, oneOf: { order: "order", responses: [{ payload: "first" }, { payload: "second" }] } }, NS);
    await saveMock({ id: "orders", http: { route: "/orders", httpMethod: "POST", conditions: [{ path: "$.status", assertAction: "equals", value: "open" }], queryParams: [{ path: "page", assertAction: "equals", value: "2" }] } }, NS);
    await saveMock({ id: "broken", http: { route: "/broken" }, response: { payloadTemplatePath: "missing.json" } }, NS);
    await writeStore(nsId, "", "kept", "from-store");
    // The index was not built yet in this process; make sure no stale one is used.
    invalidateNamespace(nsId);
  });

  it("shows the mock that answers, its path parameters and rendered response", async () => {
    const res = await get("path=/users/7");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ matched: true, mock: { id: "user", summary: "GET /users/:id" }, pathParams: { id: "7" }, response: { status: 200, headers: { "x-kind": ["user"] }, body: { id: "7" } }, nearest: [] });
    const admin = await get(`path=/users/7&headers=${encodeURIComponent(JSON.stringify({ "X-Role": "admin" }))}`);
    expect(admin.body).toMatchObject({ matched: true, mock: { id: "admin" }, response: { status: 202, body: "admin" } });
    const viaPath = await get(`method=post&path=${encodeURIComponent("orders?page=2")}&body=${encodeURIComponent('{"status":"open"}')}`);
    expect(viaPath.body).toMatchObject({ matched: true, mock: { id: "orders" } });
    const viaQuery = await get(`method=POST&path=/orders&query=page%3D2&body=${encodeURIComponent('{"status":"open"}')}`);
    expect(viaQuery.body).toMatchObject({ matched: true, mock: { id: "orders" } });
    expect((await get("path=/users/7", viewer)).status).toBe(200);
  });

  it("reports the nearest mocks and why when nothing matches", async () => {
    const res = await get(`method=POST&path=/orders&query=page%3D2&body=${encodeURIComponent('{"status":"closed"}')}`);
    expect(res.body.matched).toBe(false);
    expect(res.body.mock).toBeUndefined();
    expect(res.body.nearest[0]).toMatchObject({ id: "orders", method: "POST", route: "/orders", reasons: [{ kind: "condition" }] });
    expect(res.body.nearest[0].reasons[0].message).toContain("$.status");
    const wrongMethod = await get("method=DELETE&path=/users/1");
    expect(wrongMethod.body.nearest.map((n: { id: string }) => n.id)).toContain("user");
    expect((await get("path=/nothing/like/it")).body).toMatchObject({ matched: false });
  });

  it("has no side effects: no use taken, no store written, no round-robin step, no log, no undefined request", async () => {
    const logsBefore = await db().requestLog.count();
    const undefinedBefore = await db().undefinedRequest.count();
    for (let i = 0; i < 3; i++) expect((await get("path=/once")).body).toMatchObject({ matched: true, mock: { id: "limited" } });
    expect(await countOf("limited")).toBe(0);
    // A used-up limited mock no longer answers in the preview either.
    await db().mock.updateMany({ where: { namespaceId: nsId, id: "limited" }, data: { useCounter: 1 } });
    expect((await get("path=/once")).body.matched).toBe(false);
    // extract writes are visible to the previewed response but never stored.
    const remembered = await post({ method: "POST", path: "/remember", body: { name: "ann" } });
    expect(remembered.body.response.body).toEqual({ last: "ann", before: "from-store" });
    expect(await db().storeEntry.findMany({ where: { namespaceId: nsId, key: "last" } })).toEqual([]);
    for (let i = 0; i < 2; i++) expect((await get("path=/turns")).body.response.body).toBe("first");
    expect(await db().requestLog.count()).toBe(logsBefore);
    expect(await db().undefinedRequest.count()).toBe(undefinedBefore);
  });

  it("accepts the request as a JSON body (POST extension), with headers, a query object and a text body", async () => {
    const res = await post({ method: "get", path: "/users/9", headers: { "x-role": ["admin"] }, query: { debug: "1" } });
    expect(res.body).toMatchObject({ matched: true, mock: { id: "admin" }, pathParams: { id: "9" } });
    const text = await post({ method: "POST", path: "/orders", query: "page=2", body: "status=open" });
    expect(text.body.matched).toBe(false);
    expect((await post({ method: "POST", path: "/orders", query: { page: ["2"] }, body: { status: "open" } })).body.mock.id).toBe("orders");
  });

  it("names the mock whose response cannot be formed", async () => {
    const res = await get("path=/broken");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ matched: true, mock: { id: "broken" }, nearest: [] });
    expect(res.body.responseError).toContain("missing.json");
  });

  it("refuses bad input with a 400 naming the field; strangers get 404", async () => {
    expectValidation(await call(preview.GET, `/api/v1/mocks/preview${NS}`, { cookie: editor }), "path");
    expectValidation(await get("path=/x&method=FETCH"), "method");
    expectValidation(await get("path=/x&headers=not-json"), "headers");
    expectValidation(await get(`path=/x&headers=${encodeURIComponent("[1]")}`), "headers");
    expectValidation(await get(`path=/x&headers=${encodeURIComponent('{"a":1}')}`), "headers.a");
    expectValidation(await post({ path: "" }), "path");
    expectValidation(await post({ path: "/x", extra: true }), "");
    expect((await get("path=/users/1", stranger)).status).toBe(404);
  });
});
