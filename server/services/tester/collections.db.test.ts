// API tester collections over REST: create (named namespace or sandbox),
// read with the tree, change, the trash, deep duplicate, batch delete (all or
// nothing), the native export, secret variables (sealed at rest, masked in
// views, kept when the mask comes back), and who may do what.
import { beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "@/app/api/v1/api-tester/collections/route";
import * as oneRoute from "@/app/api/v1/api-tester/collections/[id]/route";
import * as restoreRoute from "@/app/api/v1/api-tester/collections/[id]/restore/route";
import * as duplicateRoute from "@/app/api/v1/api-tester/collections/[id]/duplicate/route";
import * as batchRoute from "@/app/api/v1/api-tester/collections/batch/route";
import * as exportRoute from "@/app/api/v1/api-tester/collections/[id]/export/route";
import * as foldersRoute from "@/app/api/v1/api-tester/collections/[id]/folders/route";
import * as requestsRoute from "@/app/api/v1/api-tester/collections/[id]/requests/route";
import * as requestRoute from "@/app/api/v1/api-tester/requests/[id]/route";
import { NativeCollectionDocument } from "@/server/contracts/tester-native-format";
import { SECRET_MASK } from "@/server/contracts/tester-request";
import { db } from "@/server/db/client";
import { decryptSecret } from "@/server/lib/crypto";
import { call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { resolveNamespace } from "../namespace-access";
import { loadCollectionForRun } from "./collection-tree";

useTestDatabase();

const NS = "tester";
let owner: string;
let viewer: string;
let outsider: string;
let ownerUser: Awaited<ReturnType<typeof makeUser>>["user"];

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner", sandbox: "editor" } });
  ownerUser = o.user;
  const v = await makeUser();
  const x = await makeUser();
  await makeNamespace(NS, { [v.user.id]: "viewer" });
  await makeNamespace("elsewhere", { [x.user.id]: "owner" });
  owner = await sessionCookie(o.user.id);
  viewer = await sessionCookie(v.user.id);
  outsider = await sessionCookie(x.user.id);
});

const base = "/api/v1/api-tester/collections";
const create = (body: unknown, { cookie = owner, ns = NS as string | null } = {}) => call(listRoute.POST, `${base}${ns ? `?namespace=${ns}` : ""}`, { method: "POST", body, cookie });
const list = (query = "", cookie = owner) => call(listRoute.GET, `${base}?namespace=${NS}&${query}`, { cookie });
const get = (id: string, { cookie = owner, ns = NS } = {}) => call(oneRoute.GET, `${base}/${id}?namespace=${ns}`, { cookie, params: { id } });
const put = (id: string, body: unknown, cookie = owner) => call(oneRoute.PUT, `${base}/${id}?namespace=${NS}`, { method: "PUT", body, cookie, params: { id } });
const trash = (id: string, query = "", cookie = owner) => call(oneRoute.DELETE, `${base}/${id}?namespace=${NS}&${query}`, { method: "DELETE", cookie, params: { id } });
const restore = (id: string) => call(restoreRoute.POST, `${base}/${id}/restore?namespace=${NS}`, { method: "POST", cookie: owner, params: { id } });
const duplicate = (id: string) => call(duplicateRoute.POST, `${base}/${id}/duplicate?namespace=${NS}`, { method: "POST", cookie: owner, params: { id } });
const batchDelete = (ids: string[], cookie = owner) => call(batchRoute.DELETE, `${base}/batch?namespace=${NS}`, { method: "DELETE", body: { ids }, cookie });
const exportOf = (id: string) => call(exportRoute.GET, `${base}/${id}/export?namespace=${NS}`, { cookie: owner, params: { id } });
const folder = (collectionId: string, body: unknown) => call(foldersRoute.POST, `${base}/${collectionId}/folders?namespace=${NS}`, { method: "POST", body, cookie: owner, params: { id: collectionId } });
const request = (collectionId: string, body: unknown) => call(requestsRoute.POST, `${base}/${collectionId}/requests?namespace=${NS}`, { method: "POST", body, cookie: owner, params: { id: collectionId } });

const scope = () => resolveNamespace({ user: { id: ownerUser.id, username: ownerUser.username, role: "user" }, via: "session", permissions: ["read", "write", "delete"], pinnedNamespaceId: null, ip: "127.0.0.1" }, NS);

/** A collection with a secret, two nested folders and requests at each level. */
async function richCollection(name = "Rich") {
  const c = await create({
    name,
    description: "all of it",
    variables: [
      { key: "baseUrl", value: "https://api.example.test" },
      { key: "token", value: "s3cr3t-token-value", secret: true },
    ],
    auth: { type: "bearer", bearer: { token: "{{token}}" } },
    scripts: { preRequest: "pm.variables.set('x', 1)", test: "pm.test('ok', () => {})" },
  });
  expect(c.status, c.text).toBe(201);
  const outer = await folder(c.body.id, { name: "Users", scripts: { test: "// folder test" } });
  const inner = await folder(c.body.id, { name: "Admin", parentId: outer.body.id, auth: { type: "none" } });
  expect(inner.status, inner.text).toBe(201);
  const root = await request(c.body.id, { name: "Health", url: "{{baseUrl}}/health" });
  const inOuter = await request(c.body.id, { name: "List users", folderId: outer.body.id, method: "get", url: "{{baseUrl}}/users", headers: { Accept: "application/json" } });
  const inInner = await request(c.body.id, { name: "Delete user", folderId: inner.body.id, method: "DELETE", url: "{{baseUrl}}/users/1" });
  for (const r of [root, inOuter, inInner]) expect(r.status, r.text).toBe(201);
  return { id: c.body.id as string, outer: outer.body.id as string, inner: inner.body.id as string, requests: [root.body.id, inOuter.body.id, inInner.body.id] as string[] };
}

describe("collections: create, read, change", () => {
  it("creates in the named namespace, or in sandbox when none is named; the view has the tree", async () => {
    const named = await create({ name: "Orders API" });
    expect(named.status, named.text).toBe(201);
    expect(named.body).toMatchObject({ namespace: NS, name: "Orders API", description: "", variables: [], auth: { type: "none" }, scripts: {}, folders: [], requests: [], folderCount: 0, requestCount: 0, deletedAt: null, createdBy: ownerUser.username });
    const defaulted = await create({ name: "Scratch" }, { ns: null });
    expect(defaulted.status, defaulted.text).toBe(201);
    expect(defaulted.body.namespace).toBe("sandbox");
    const inBody = await create({ name: "Named in body", namespace: NS }, { ns: null });
    expect(inBody.body.namespace).toBe(NS);

    const { id, outer, inner, requests } = await richCollection();
    const view = await get(id);
    expect(view.status).toBe(200);
    expect(view.body.folders.map((f: { id: string; parentId: string | null }) => [f.id, f.parentId])).toEqual([
      [outer, null],
      [inner, outer],
    ]);
    expect(view.body.requests).toEqual([
      { id: requests[0], name: "Health", method: "GET", url: "{{baseUrl}}/health", kind: "http", folderId: null, sortIndex: 0 },
      { id: requests[1], name: "List users", method: "GET", url: "{{baseUrl}}/users", kind: "http", folderId: outer, sortIndex: 0 },
      { id: requests[2], name: "Delete user", method: "DELETE", url: "{{baseUrl}}/users/1", kind: "http", folderId: inner, sortIndex: 0 },
    ]);
    expect(view.body).toMatchObject({ folderCount: 2, requestCount: 3, auth: { type: "bearer", bearer: { token: "{{token}}" } } });
  });

  it("PUT changes only the fields given", async () => {
    const { body: c } = await create({ name: "Before", description: "keep me", scripts: { test: "t" } });
    const res = await put(c.id, { name: "After" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "After", description: "keep me", scripts: { test: "t" } });
    expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(c.updatedAt).getTime());
  });

  it("secret variables are sealed at rest, masked in views, kept when the mask is sent back, replaced by a new value", async () => {
    const { body: c } = await create({ name: "Secrets", variables: [{ key: "apiKey", value: "k-123456", secret: true }, { key: "plain", value: "visible" }, { key: "emptySecret", value: "", secret: true }] });
    expect(c.variables).toEqual([
      { key: "apiKey", value: SECRET_MASK, secret: true, enabled: true },
      { key: "plain", value: "visible", secret: false, enabled: true },
      { key: "emptySecret", value: "", secret: true, enabled: true },
    ]);
    const raw = async () => (await db().testerCollection.findUniqueOrThrow({ where: { id: c.id } })).variables as { key: string; value: string }[];
    const sealed = (await raw())[0].value;
    expect(sealed).not.toContain("k-123456");
    expect(decryptSecret(sealed)).toBe("k-123456");
    expect(JSON.stringify(await raw())).not.toContain("k-123456");

    // The form's round trip: the view sent back unchanged keeps the secret.
    const roundTrip = await put(c.id, { variables: [...c.variables, { key: "added", value: "new" }] });
    expect(roundTrip.status, roundTrip.text).toBe(200);
    expect(decryptSecret((await raw())[0].value)).toBe("k-123456");
    expect((await loadCollectionForRun(await scope(), c.id)).variables.find((v) => v.key === "apiKey")?.value).toBe("k-123456");

    // A new value replaces it; unmarking a secret sent as the mask reveals the stored value.
    await put(c.id, { variables: [{ key: "apiKey", value: "k-999", secret: true }] });
    expect(decryptSecret((await raw())[0].value)).toBe("k-999");
    const unmarked = await put(c.id, { variables: [{ key: "apiKey", value: SECRET_MASK, secret: false }] });
    expect(unmarked.body.variables).toEqual([{ key: "apiKey", value: "k-999", secret: false, enabled: true }]);
  });

  it("malformed input is a 400 in the envelope naming the field", async () => {
    const cases: [unknown, string][] = [
      [{}, "name"],
      [{ name: "  " }, "name"],
      [{ name: "x", variables: [{ key: "a" }, { key: "a" }] }, "variables.1.key"],
      [{ name: "x", variables: [{ value: "no key" }] }, "variables.0.key"],
      [{ name: "x", auth: { type: "kerberos" } }, "auth.type"],
      [{ name: "x", colour: "red" }, ""],
      [{ name: "x".repeat(256) }, "name"],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: "validation", request_id: expect.any(String) });
      expect(res.body.details.map((d: { field: string }) => d.field), JSON.stringify(body)).toContain(field);
    }
    const broken = await call(listRoute.POST, `${base}?namespace=${NS}`, { method: "POST", rawBody: "{", headers: { "content-type": "application/json" }, cookie: owner });
    expect(broken.status).toBe(400);
    const badId = await get("not-a-uuid");
    expect(badId.status).toBe(400);
    expect(badId.body.details[0]).toMatchObject({ location: "path", field: "id" });
    expect((await list("limit=0")).status).toBe(400);
    expect((await list("trashed=maybe")).status).toBe(400);
  });
});

describe("collections: list, trash, restore", () => {
  it("lists active ones by default, the trash with trashed=true; searches names in any case; pages", async () => {
    const a = (await create({ name: "Payments alpha" })).body;
    const b = (await create({ name: "PAYMENTS beta" })).body;
    const c = (await create({ name: "100% coverage" })).body;
    await trash(b.id);
    const active = await list("q=payments");
    expect(active.status).toBe(200);
    expect(active.body.collections.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const trashed = await list("trashed=true&q=payments");
    expect(trashed.body.collections.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect(trashed.body.collections[0].deletedAt).not.toBeNull();
    // LIKE wildcards are searched for as text.
    expect((await list("q=%25")).body.collections.map((x: { id: string }) => x.id)).toEqual([c.id]);
    const page = await list("limit=2&offset=1");
    expect(page.body).toMatchObject({ limit: 2, offset: 1 });
    expect(page.body.collections).toHaveLength(2);
    expect(page.body.total).toBeGreaterThanOrEqual(4);
  });

  it("DELETE moves to the trash (readable there), restore brings it back; a trashed collection refuses writes; permanent delete only from the trash", async () => {
    const { id, requests } = await richCollection("Trashable");
    const gone = await trash(id);
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body.deletedAt).not.toBeNull();
    expect((await get(id)).body.deletedAt).not.toBeNull();
    const refused = await put(id, { name: "nope" });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("conflict");
    expect((await folder(id, { name: "F" })).status).toBe(409);
    expect((await request(id, { name: "R" })).status).toBe(409);
    expect((await call(requestRoute.PUT, `/api/v1/api-tester/requests/${requests[0]}?namespace=${NS}`, { method: "PUT", body: { name: "x" }, cookie: owner, params: { id: requests[0] } })).status).toBe(409);
    await expect(loadCollectionForRun(await scope(), id)).rejects.toMatchObject({ status: 409 });

    const back = await restore(id);
    expect(back.status).toBe(200);
    expect(back.body.deletedAt).toBeNull();
    expect((await put(id, { name: "Renamed" })).status).toBe(200);

    expect((await trash(id, "permanent=true")).status).toBe(409);
    await trash(id);
    const purged = await trash(id, "permanent=true");
    expect(purged.status, purged.text).toBe(200);
    expect((await get(id)).status).toBe(404);
    expect(await db().testerRequest.count({ where: { id: { in: requests } } })).toBe(0);
  });

  it("batch delete moves all to the trash or none; an unknown id is a 404 naming it", async () => {
    const one = (await create({ name: "Batch one" })).body.id;
    const two = (await create({ name: "Batch two" })).body.id;
    const foreign = (await create({ name: "Not yours" }, { cookie: outsider, ns: "elsewhere" })).body.id;
    const missing = await batchDelete([one, foreign, two]);
    expect(missing.status).toBe(404);
    expect(missing.body.details).toEqual([{ location: "body", field: "ids.1", message: `collection '${foreign}' not found` }]);
    expect((await get(one)).body.deletedAt).toBeNull();
    expect((await get(two)).body.deletedAt).toBeNull();
    const done = await batchDelete([one, two, one]);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ deleted: 2, ids: [one, two] });
    expect((await get(two)).body.deletedAt).not.toBeNull();
    expect((await batchDelete([])).status).toBe(400);
    expect((await batchDelete(["nope"])).body.details[0].field).toBe("ids.0");
  });
});

describe("collections: duplicate and export", () => {
  it("duplicate is a deep, independent copy: folders, requests, scripts, auth, variables with their secrets", async () => {
    const src = await richCollection("Original");
    const dup = await duplicate(src.id);
    expect(dup.status, dup.text).toBe(201);
    const original = (await get(src.id)).body;
    expect(dup.body.id).not.toBe(src.id);
    expect(dup.body).toMatchObject({ name: "Original (copy)", description: original.description, auth: original.auth, scripts: original.scripts, variables: original.variables, folderCount: 2, requestCount: 3 });
    const shape = (v: typeof original) => ({
      folders: v.folders.map((f: any) => [f.name, v.folders.find((p: any) => p.id === f.parentId)?.name ?? null, f.scripts, f.auth]),
      requests: v.requests.map((r: any) => [r.name, r.method, r.url, v.folders.find((f: any) => f.id === r.folderId)?.name ?? null]),
    });
    expect(shape(dup.body)).toEqual(shape(original));
    const newIds = [...dup.body.folders.map((f: any) => f.id), ...dup.body.requests.map((r: any) => r.id)];
    const oldIds = [...original.folders.map((f: any) => f.id), ...original.requests.map((r: any) => r.id)];
    expect(newIds.filter((id: string) => oldIds.includes(id))).toEqual([]);
    expect((await loadCollectionForRun(await scope(), dup.body.id)).variables.find((v) => v.key === "token")?.value).toBe("s3cr3t-token-value");

    // Independent: changing or deleting the original leaves the copy as it was.
    await call(requestRoute.PUT, `/api/v1/api-tester/requests/${src.requests[1]}?namespace=${NS}`, { method: "PUT", body: { url: "changed" }, cookie: owner, params: { id: src.requests[1] } });
    await trash(src.id);
    await trash(src.id, "permanent=true");
    const after = (await get(dup.body.id)).body;
    expect(shape(after)).toEqual(shape(original));
    const copied = await call(requestRoute.GET, `/api/v1/api-tester/requests/${dup.body.requests[1].id}?namespace=${NS}`, { cookie: owner, params: { id: dup.body.requests[1].id } });
    expect(copied.body).toMatchObject({ url: "{{baseUrl}}/users", headers: [{ key: "Accept", value: "application/json", enabled: true }] });
  });

  it("export is a native document with secrets masked that parses with NativeCollectionDocument; subfolders before requests at each level", async () => {
    const src = await richCollection("Export me / v2");
    const res = await exportOf(src.id);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-disposition")).toContain('filename="Export-me-v2.polymock-collection.json"');
    expect(res.text).not.toContain("s3cr3t-token-value");
    const doc = NativeCollectionDocument.parse(res.body);
    expect(doc).toMatchObject({ format: "polymock-collection", version: 1, collection: { name: "Export me / v2", description: "all of it", auth: { type: "bearer" }, scripts: { test: "pm.test('ok', () => {})" } } });
    expect(doc.collection.variables).toEqual([
      { key: "baseUrl", value: "https://api.example.test", secret: false, enabled: true },
      { key: "token", value: SECRET_MASK, secret: true, enabled: true },
    ]);
    const outline = (items: typeof doc.items): unknown[] => items.map((i) => (i.type === "folder" ? { [i.name]: outline(i.items) } : i.name));
    expect(outline(doc.items)).toEqual([{ Users: [{ Admin: ["Delete user"] }, "List users"] }, "Health"]);
    const users = doc.items[0];
    expect(users.type === "folder" && users.scripts).toEqual({ test: "// folder test" });
    const listUsers = users.type === "folder" ? users.items[1] : null;
    expect(listUsers).toMatchObject({ type: "request", request: { method: "GET", url: "{{baseUrl}}/users", headers: [{ key: "Accept", value: "application/json" }] } });
    // The executor's loader walks the same order, with each request's folder path and the real secret.
    const forRun = await loadCollectionForRun(await scope(), src.id);
    expect(forRun.requests.map((r) => [r.name, r.path])).toEqual([
      ["Delete user", ["Users", "Admin"]],
      ["List users", ["Users"]],
      ["Health", []],
    ]);
    expect(forRun.folders.map((f) => [f.name, f.path])).toEqual([
      ["Users", []],
      ["Admin", ["Users"]],
    ]);
    expect(forRun.variables.find((v) => v.key === "token")?.value).toBe("s3cr3t-token-value");
    // A document with a version we do not know is refused, not guessed at.
    expect(NativeCollectionDocument.safeParse({ ...doc, version: 2 }).success).toBe(false);
  });
});

describe("collections: who may do what", () => {
  it("another namespace's ids are 404; a namespace the caller cannot read is 404; a viewer reads but cannot write", async () => {
    const mine = (await create({ name: "Mine" })).body.id;
    const theirs = (await create({ name: "Theirs" }, { cookie: outsider, ns: "elsewhere" })).body.id;
    expect((await get(theirs)).status).toBe(404);
    expect((await get(theirs)).body.error).toContain("not found");
    expect((await put(theirs, { name: "x" })).status).toBe(404);
    expect((await trash(theirs)).status).toBe(404);
    expect((await duplicate(theirs)).status).toBe(404);
    expect((await get(mine, { cookie: outsider })).status).toBe(404);
    expect((await get(mine, { ns: "elsewhere" })).status).toBe(404);
    expect((await create({ name: "x" }, { cookie: outsider })).status).toBe(404);

    expect((await get(mine, { cookie: viewer })).status).toBe(200);
    expect((await list("", viewer)).status).toBe(200);
    const denied = await create({ name: "x" }, { cookie: viewer });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe("forbidden");
    expect((await put(mine, { name: "x" }, viewer)).status).toBe(403);
    expect((await trash(mine, "", viewer)).status).toBe(403);
    expect((await batchDelete([mine], viewer)).status).toBe(403);
  });
});
