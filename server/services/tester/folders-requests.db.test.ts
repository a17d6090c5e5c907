// Folders and saved requests of API tester collections over REST: nesting,
// moves (never into the folder itself or below it), deleting a subtree,
// request CRUD with partial PUTs, reorder, batch move and delete (all or
// nothing), the namespace boundary; and the tRPC router over the same services.
import { beforeAll, describe, expect, it } from "vitest";
import * as collectionsRoute from "@/app/api/v1/api-tester/collections/route";
import * as collectionRoute from "@/app/api/v1/api-tester/collections/[id]/route";
import * as foldersRoute from "@/app/api/v1/api-tester/collections/[id]/folders/route";
import * as folderRoute from "@/app/api/v1/api-tester/folders/[id]/route";
import * as requestsRoute from "@/app/api/v1/api-tester/collections/[id]/requests/route";
import * as reorderRoute from "@/app/api/v1/api-tester/collections/[id]/requests/reorder/route";
import * as requestRoute from "@/app/api/v1/api-tester/requests/[id]/route";
import * as batchRoute from "@/app/api/v1/api-tester/requests/batch/route";
import * as moveRoute from "@/app/api/v1/api-tester/requests/batch/move/route";
import { createCaller } from "@/server/api/root";
import type { TrpcContext } from "@/server/api/trpc";
import { MAX_FOLDER_DEPTH } from "@/server/contracts/tester-native-format";
import { actorFor, call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "workbench";
let owner: string;
let viewer: string;
let outsider: string;
let users: Record<"owner" | "viewer", Awaited<ReturnType<typeof makeUser>>["user"]>;

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  const v = await makeUser();
  const x = await makeUser({ namespaces: { other: "owner" } });
  await makeNamespace(NS, { [v.user.id]: "viewer" });
  users = { owner: o.user, viewer: v.user };
  owner = await sessionCookie(o.user.id);
  viewer = await sessionCookie(v.user.id);
  outsider = await sessionCookie(x.user.id);
});

const q = `?namespace=${NS}`;
const newCollection = async (name = "C", { cookie = owner, ns = NS } = {}) => {
  const res = await call(collectionsRoute.POST, `/api/v1/api-tester/collections?namespace=${ns}`, { method: "POST", body: { name }, cookie });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
};
const view = async (id: string) => (await call(collectionRoute.GET, `/api/v1/api-tester/collections/${id}${q}`, { cookie: owner, params: { id } })).body;
const newFolder = (collectionId: string, body: unknown, cookie = owner) => call(foldersRoute.POST, `/api/v1/api-tester/collections/${collectionId}/folders${q}`, { method: "POST", body, cookie, params: { id: collectionId } });
const putFolder = (id: string, body: unknown) => call(folderRoute.PUT, `/api/v1/api-tester/folders/${id}${q}`, { method: "PUT", body, cookie: owner, params: { id } });
const deleteFolder = (id: string, cookie = owner) => call(folderRoute.DELETE, `/api/v1/api-tester/folders/${id}${q}`, { method: "DELETE", cookie, params: { id } });
const newRequest = (collectionId: string, body: unknown, cookie = owner) => call(requestsRoute.POST, `/api/v1/api-tester/collections/${collectionId}/requests${q}`, { method: "POST", body, cookie, params: { id: collectionId } });
const listRequests = (collectionId: string) => call(requestsRoute.GET, `/api/v1/api-tester/collections/${collectionId}/requests${q}`, { cookie: owner, params: { id: collectionId } });
const getRequest = (id: string, cookie = owner) => call(requestRoute.GET, `/api/v1/api-tester/requests/${id}${q}`, { cookie, params: { id } });
const putRequest = (id: string, body: unknown, cookie = owner) => call(requestRoute.PUT, `/api/v1/api-tester/requests/${id}${q}`, { method: "PUT", body, cookie, params: { id } });
const deleteRequest = (id: string) => call(requestRoute.DELETE, `/api/v1/api-tester/requests/${id}${q}`, { method: "DELETE", cookie: owner, params: { id } });
const reorder = (collectionId: string, ids: string[]) => call(reorderRoute.POST, `/api/v1/api-tester/collections/${collectionId}/requests/reorder${q}`, { method: "POST", body: { ids }, cookie: owner, params: { id: collectionId } });
const batchDelete = (ids: string[]) => call(batchRoute.DELETE, `/api/v1/api-tester/requests/batch${q}`, { method: "DELETE", body: { ids }, cookie: owner });
const move = (body: unknown, cookie = owner) => call(moveRoute.PATCH, `/api/v1/api-tester/requests/batch/move${q}`, { method: "PATCH", body, cookie });

async function requestsIn(collectionId: string, names: string[], folderId?: string) {
  const ids: string[] = [];
  for (const name of names) {
    const res = await newRequest(collectionId, { name, url: `https://example.test/${name}`, folderId });
    expect(res.status, res.text).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

describe("folders", () => {
  it("nest; siblings go last; a parent of another collection is a 400", async () => {
    const c = await newCollection("Nesting");
    const a = await newFolder(c, { name: "A" });
    expect(a.status, a.text).toBe(201);
    expect(a.body).toMatchObject({ collectionId: c, parentId: null, name: "A", description: "", auth: { type: "inherit" }, scripts: {}, sortIndex: 0 });
    const b = await newFolder(c, { name: "B" });
    expect(b.body.sortIndex).toBe(1);
    const a1 = await newFolder(c, { name: "A1", parentId: a.body.id, description: "inside A", scripts: { preRequest: "1" } });
    expect(a1.body).toMatchObject({ parentId: a.body.id, sortIndex: 0, description: "inside A", scripts: { preRequest: "1" } });

    const other = await newCollection("Other");
    const foreign = await newFolder(other, { name: "Elsewhere" });
    const refused = await newFolder(c, { name: "x", parentId: foreign.body.id });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ location: "body", field: "parentId", message: `'${foreign.body.id}' is not a folder of this collection` }]);
    expect((await newFolder(c, { name: "" })).body.details[0].field).toBe("name");
    expect((await newFolder(c, { name: "x", parentId: "nope" })).body.details[0].field).toBe("parentId");
  });

  it("move under a new parent; never into itself or a folder inside it (400); reorder among siblings; nesting has a limit", async () => {
    const c = await newCollection("Moves");
    const top = (await newFolder(c, { name: "Top" })).body.id;
    const mid = (await newFolder(c, { name: "Mid", parentId: top })).body.id;
    const low = (await newFolder(c, { name: "Low", parentId: mid })).body.id;
    const side = (await newFolder(c, { name: "Side" })).body.id;

    for (const [id, parentId] of [[top, low], [top, mid], [mid, mid]]) {
      const res = await putFolder(id, { parentId });
      expect(res.status, res.text).toBe(400);
      expect(res.body.details[0]).toMatchObject({ location: "body", field: "parentId", message: "a folder cannot move into itself or a folder inside it" });
    }
    const moved = await putFolder(low, { parentId: side, name: "Low (moved)" });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ parentId: side, name: "Low (moved)", sortIndex: 0 });
    const toRoot = await putFolder(mid, { parentId: null });
    expect(toRoot.body).toMatchObject({ parentId: null, sortIndex: 2 });
    const first = await putFolder(mid, { sortIndex: 0 });
    expect(first.body.sortIndex).toBe(0);
    const roots = (await view(c)).folders.filter((f: { parentId: string | null }) => f.parentId === null);
    expect(roots.map((f: { name: string; sortIndex: number }) => [f.name, f.sortIndex])).toEqual([["Mid", 0], ["Top", 1], ["Side", 2]]);

    // Depth: a chain of MAX_FOLDER_DEPTH folders is allowed, one more is not (created or moved).
    let parent: string | undefined;
    for (let i = 0; i < MAX_FOLDER_DEPTH; i++) parent = (await newFolder(c, { name: `d${i}`, parentId: parent })).body.id;
    const tooDeep = await newFolder(c, { name: "too deep", parentId: parent });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.details[0].message).toContain(`${MAX_FOLDER_DEPTH} deep`);
    expect((await putFolder(top, { parentId: parent })).status).toBe(400);
  });

  it("delete removes the folder's subtree with its requests, in one go; other folders stay", async () => {
    const c = await newCollection("Deletes");
    const keep = (await newFolder(c, { name: "Keep" })).body.id;
    const drop = (await newFolder(c, { name: "Drop" })).body.id;
    const dropChild = (await newFolder(c, { name: "Drop/child", parentId: drop })).body.id;
    const kept = await requestsIn(c, ["k1"], keep);
    await requestsIn(c, ["d1", "d2"], drop);
    await requestsIn(c, ["d3"], dropChild);
    const root = await requestsIn(c, ["root"]);
    const res = await deleteFolder(drop);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ok: true, deletedFolders: 2, deletedRequests: 3 });
    const after = await view(c);
    expect(after.folders.map((f: { id: string }) => f.id)).toEqual([keep]);
    expect(after.requests.map((r: { id: string }) => r.id).sort()).toEqual([...kept, ...root].sort());
    expect((await deleteFolder(drop)).status).toBe(404);
    expect((await deleteFolder(keep, viewer)).status).toBe(403);
  });
});

describe("requests", () => {
  it("create takes the definition's fields with their defaults; GET returns them; PUT changes only what is given", async () => {
    const c = await newCollection("Requests");
    const folder = (await newFolder(c, { name: "F" })).body.id;
    const created = await newRequest(c, {
      name: "Create user",
      method: "post",
      url: "{{base}}/users",
      headers: { "Content-Type": "application/json" },
      body: { mode: "raw", raw: '{"name":"{{name}}"}', language: "json" },
      scripts: { test: "pm.test('201', () => pm.response.to.have.status(201))" },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      collectionId: c,
      folderId: null,
      name: "Create user",
      sortIndex: 0,
      kind: "http",
      method: "POST",
      url: "{{base}}/users",
      headers: [{ key: "Content-Type", value: "application/json", enabled: true }],
      params: [],
      body: { mode: "raw", raw: '{"name":"{{name}}"}', language: "json" },
      auth: { type: "inherit" },
      settings: { timeoutMs: 30000, followRedirects: true, maxRedirects: 10, verifyTls: true },
    });
    const id = created.body.id;
    expect((await getRequest(id)).body).toEqual(created.body);
    const blank = await newRequest(c, { name: "Untitled" });
    expect(blank.body).toMatchObject({ url: "", method: "GET", sortIndex: 1 });

    const patched = await putRequest(id, { url: "{{base}}/v2/users", settings: { timeoutMs: 5000 } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ name: "Create user", method: "POST", url: "{{base}}/v2/users", headers: created.body.headers, body: created.body.body, scripts: created.body.scripts, settings: { timeoutMs: 5000, followRedirects: true } });
    const moved = await putRequest(id, { folderId: folder, name: "Create user (v2)" });
    expect(moved.body).toMatchObject({ folderId: folder, sortIndex: 0, name: "Create user (v2)", url: "{{base}}/v2/users" });
    expect((await view(c)).requests.find((r: { id: string }) => r.id === id)).toMatchObject({ folderId: folder, name: "Create user (v2)", method: "POST" });

    const bad = await putRequest(id, { method: "P0ST" });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe("method");
    expect((await putRequest(id, { folderId: "7c4e2a44-5e8f-4a57-9a43-3f3bb3c1a0a1" })).body.details[0].field).toBe("folderId");
    expect((await putRequest(id, { bogus: 1 })).status).toBe(400);
    expect((await newRequest(c, { url: "x" })).body.details[0].field).toBe("name");
    expect((await newRequest(c, { name: "x", body: { mode: "carrier-pigeon" } })).body.details[0].field).toBe("body.mode");

    const listed = await listRequests(c);
    expect(listed.body.count).toBe(2);
    expect(listed.body.requests.map((r: { id: string }) => r.id)).toEqual([blank.body.id, id]);

    expect((await deleteRequest(id)).body).toEqual({ ok: true });
    expect((await getRequest(id)).status).toBe(404);
    expect((await deleteRequest(id)).status).toBe(404);
  });

  it("reorder puts the named requests first in the order given, the folder's others after; ids from elsewhere are a 400", async () => {
    const c = await newCollection("Reorder");
    const f = (await newFolder(c, { name: "F" })).body.id;
    const [a, b, cc, d] = await requestsIn(c, ["a", "b", "c", "d"]);
    const [inF] = await requestsIn(c, ["in-folder"], f);
    const res = await reorder(c, [d, b]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.folderId).toBeNull();
    expect(res.body.requests.map((r: { name: string; sortIndex: number }) => [r.name, r.sortIndex])).toEqual([["d", 0], ["b", 1], ["a", 2], ["c", 3]]);
    const tree = await view(c);
    expect(tree.requests.filter((r: { folderId: string | null }) => r.folderId === null).map((r: { id: string }) => r.id)).toEqual([d, b, a, cc]);
    expect((await reorder(c, [inF])).body.folderId).toBe(f);

    const other = await newCollection("Elsewhere");
    const [foreign] = await requestsIn(other, ["x"]);
    const wrong = await reorder(c, [a, foreign]);
    expect(wrong.status).toBe(400);
    expect(wrong.body.details).toEqual([{ location: "body", field: "ids.1", message: `'${foreign}' is not a request of this collection` }]);
    expect((await reorder(c, [a, inF])).body.details[0]).toMatchObject({ field: "ids.1", message: "every request must be in the same folder (or all at the root)" });
    expect((await reorder(c, [a, a])).body.details[0]).toMatchObject({ field: "ids.1" });
    expect((await reorder(c, [])).status).toBe(400);
  });

  it("batch move takes requests to another collection and folder of the namespace, last there, all or none", async () => {
    const from = await newCollection("From");
    const to = await newCollection("To");
    const target = (await newFolder(to, { name: "Target" })).body.id;
    await requestsIn(to, ["already"], target);
    const [r1, r2, r3] = await requestsIn(from, ["r1", "r2", "r3"]);
    const foreignCollection = await newCollection("Foreign", { cookie: outsider, ns: "other" });

    const unknown = "0b7d5f4e-8f9a-4c1e-9d2b-5a6c7e8f9a0b";
    const missing = await move({ ids: [r1, unknown], collectionId: to, folderId: target });
    expect(missing.status).toBe(404);
    expect(missing.body.details).toEqual([{ location: "body", field: "ids.1", message: `request '${unknown}' not found` }]);
    const otherNs = await move({ ids: [r1], collectionId: foreignCollection });
    expect(otherNs.status).toBe(404);
    expect(otherNs.body.details[0].field).toBe("collectionId");
    const wrongFolder = await move({ ids: [r1], collectionId: from, folderId: target });
    expect(wrongFolder.status).toBe(400);
    expect(wrongFolder.body.details[0].field).toBe("folderId");
    expect((await view(from)).requestCount).toBe(3);

    const res = await move({ ids: [r3, r1], collectionId: to, folderId: target });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ moved: 2, collectionId: to, folderId: target });
    expect(res.body.requests.map((r: { id: string; sortIndex: number; folderId: string }) => [r.id, r.sortIndex, r.folderId])).toEqual([
      [r3, 1, target],
      [r1, 2, target],
    ]);
    expect((await view(from)).requests.map((r: { id: string }) => r.id)).toEqual([r2]);
    expect((await getRequest(r1)).body).toMatchObject({ collectionId: to, folderId: target, url: "https://example.test/r1" });
    const toRoot = await move({ ids: [r1], collectionId: to });
    expect(toRoot.body.requests[0]).toMatchObject({ folderId: null, sortIndex: 0 });
    expect((await move({ ids: [r2], collectionId: to }, viewer)).status).toBe(403);
  });

  it("batch delete removes all or none; an unknown id is a 404 naming it", async () => {
    const c = await newCollection("Batch");
    const [a, b] = await requestsIn(c, ["a", "b"]);
    const unknown = "1c8e6a5b-7d9f-4b2a-8c3d-6e7f8a9b0c1d";
    const refused = await batchDelete([a, unknown, b]);
    expect(refused.status).toBe(404);
    expect(refused.body.details[0]).toMatchObject({ field: "ids.1" });
    expect((await listRequests(c)).body.count).toBe(2);
    const done = await batchDelete([a, b]);
    expect(done.body).toEqual({ deleted: 2, ids: [a, b] });
    expect((await listRequests(c)).body.count).toBe(0);
  });

  it("another namespace's requests and folders are 404; a viewer reads but cannot write", async () => {
    const theirs = await newCollection("Theirs", { cookie: outsider, ns: "other" });
    const req = await call(requestsRoute.POST, `/api/v1/api-tester/collections/${theirs}/requests?namespace=other`, { method: "POST", body: { name: "x", url: "u" }, cookie: outsider, params: { id: theirs } });
    const fold = await call(foldersRoute.POST, `/api/v1/api-tester/collections/${theirs}/folders?namespace=other`, { method: "POST", body: { name: "f" }, cookie: outsider, params: { id: theirs } });
    expect((await getRequest(req.body.id)).status).toBe(404);
    expect((await putRequest(req.body.id, { name: "mine now" })).status).toBe(404);
    expect((await deleteFolder(fold.body.id)).status).toBe(404);
    expect((await putFolder(fold.body.id, { name: "x" })).status).toBe(404);
    expect((await newRequest(theirs, { name: "x" })).status).toBe(404);
    expect((await reorder(theirs, [req.body.id])).status).toBe(404);
    expect((await batchDelete([req.body.id])).status).toBe(404);
    expect((await getRequest(req.body.id, outsider)).status).toBe(404); // outsider names our namespace, which they cannot read

    const mine = await newCollection("Mine");
    const [r] = await requestsIn(mine, ["r"]);
    expect((await getRequest(r, viewer)).status).toBe(200);
    expect((await putRequest(r, { name: "x" }, viewer)).status).toBe(403);
    expect((await newRequest(mine, { name: "x" }, viewer)).status).toBe(403);
    expect((await newFolder(mine, { name: "x" }, viewer)).status).toBe(403);
  });
});

describe("tRPC apiTester router", () => {
  const caller = (who: "owner" | "viewer") => createCaller({ actor: actorFor(users[who]), authError: null, ip: "127.0.0.1", userAgent: null, requestId: "test" } satisfies TrpcContext);

  it("calls the same services, with the same namespace and permission rules", async () => {
    const api = caller("owner").apiTester;
    const c = await api.collections.create({ namespace: NS, collection: { name: "Via tRPC", variables: [{ key: "k", value: "v", secret: true, enabled: true }] } });
    expect(c.variables[0].value).toBe("••••••");
    const f = await api.folders.create({ namespace: NS, collectionId: c.id, folder: { name: "F" } });
    const r = await api.requests.create({ namespace: NS, collectionId: c.id, request: { name: "R", url: "https://example.test", folderId: f.id } });
    const r2 = await api.requests.create({ namespace: NS, collectionId: c.id, request: { name: "R2", url: "https://example.test/2", folderId: f.id } });
    expect((await api.requests.reorder({ namespace: NS, collectionId: c.id, ids: [r2.id, r.id] })).requests.map((x) => x.id)).toEqual([r2.id, r.id]);
    expect((await api.collections.get({ namespace: NS, id: c.id })).requests).toHaveLength(2);
    expect((await api.collections.list({ namespace: NS, trashed: false, q: "via trpc", offset: 0, limit: 10 })).collections.map((x) => x.id)).toEqual([c.id]);
    const moved = await api.requests.move({ namespace: NS, ids: [r.id], collectionId: c.id, folderId: null });
    expect(moved.requests[0].folderId).toBeNull();
    await api.collections.remove({ namespace: NS, id: c.id });
    expect((await api.collections.list({ namespace: NS, trashed: true, offset: 0, limit: 50 })).collections.map((x) => x.id)).toContain(c.id);
    await api.collections.restore({ namespace: NS, id: c.id });
    const copy = await api.collections.duplicate({ namespace: NS, id: c.id });
    expect(copy.requestCount).toBe(2);
    expect((await api.collections.export({ namespace: NS, id: c.id })).document.items).toHaveLength(2);
    expect(await api.collections.removeMany({ namespace: NS, ids: [copy.id] })).toEqual({ deleted: 1, ids: [copy.id] });

    await expect(caller("viewer").apiTester.collections.create({ namespace: NS, collection: { name: "no" } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller("viewer").apiTester.folders.update({ namespace: NS, id: f.id, patch: { parentId: f.id } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(api.folders.update({ namespace: NS, id: f.id, patch: { parentId: f.id } })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(api.collections.get({ namespace: "other", id: c.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
