// How the mock-management API finds the namespace, sent the way the public
// clients send it (client-wire-shapes.md, "Transport habits"): Go puts the
// namespace in JSON bodies with X-API-Key, Python sends X-Namespace with a
// bearer token, and id-only calls carry no namespace at all. Also the shapes
// those clients decode: namespace names, `{tag}`, `closedAt`, JSON on every 2xx.
import { beforeAll, describe, expect, it } from "vitest";
import * as mocks from "@/app/api/v1/mocks/route";
import * as mockOne from "@/app/api/v1/mocks/[id]/route";
import * as purge from "@/app/api/v1/mocks/[id]/purge/route";
import * as restore from "@/app/api/v1/mocks/[id]/restore/route";
import * as logs from "@/app/api/v1/mocks/[id]/logs/route";
import * as versions from "@/app/api/v1/mocks/[id]/versions/route";
import * as versionOne from "@/app/api/v1/mocks/[id]/versions/[version]/route";
import * as versionRestore from "@/app/api/v1/mocks/[id]/versions/[version]/restore/route";
import * as batch from "@/app/api/v1/mocks/batch/route";
import * as copy from "@/app/api/v1/mocks/copy-to-namespace/route";
import * as folders from "@/app/api/v1/mock-folders/route";
import * as namespaces from "@/app/api/v1/namespaces/route";
import * as tags from "@/app/api/v1/tags/route";
import * as globalStore from "@/app/api/v1/stores/global/route";
import * as template from "@/app/api/v1/templates/[fileName]/route";
import * as tempFiles from "@/app/api/v1/temp-files/route";
import { db } from "@/server/db/client";
import { allEndpoints } from "@/server/contracts/api";
import { buildOpenApi } from "@/server/http/openapi";
import { call, makeNamespace, makeToken, makeUser, type CallOptions } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

type Handler = Parameters<typeof call>[0];
const ns: Record<string, string> = {}; // name → id
let goKey = ""; // Go client: X-API-Key
let pyToken = ""; // Python client: Authorization: Bearer
let pinnedKey = ""; // a credential pinned to team-b

beforeAll(async () => {
  const alice = await makeUser({ username: "alice" });
  const stranger = await makeUser({ username: "stranger" });
  // alice is deliberately not a member of sandbox: a silent fallback to it would be a 404 or a wrong write.
  for (const [name, members] of Object.entries({
    sandbox: { [stranger.user.id]: "owner" },
    "team-a": { [alice.user.id]: "editor" },
    "team-b": { [alice.user.id]: "editor" },
    viewonly: { [alice.user.id]: "viewer" },
    secret: { [stranger.user.id]: "owner" },
  } as const)) {
    ns[name] = (await makeNamespace(name, members)).id;
  }
  goKey = await makeToken(alice.user);
  pyToken = await makeToken(alice.user);
  pinnedKey = await makeToken(alice.user, { namespace: "team-b" });
});

/** As the Go client: API key header, JSON bytes as given, no namespace anywhere but the body. */
function goCall(handler: Handler, url: string, opts: CallOptions = {}) {
  return call(handler, url, { ...opts, headers: { "x-api-key": goKey, ...opts.headers } });
}

/** As the Python client: bearer token and X-Namespace on every request. */
function pyCall(handler: Handler, url: string, namespace: string, opts: CallOptions = {}) {
  return call(handler, url, { ...opts, headers: { authorization: `Bearer ${pyToken}`, "x-namespace": namespace, ...opts.headers } });
}

const mockRows = (id: string) => db().mock.findMany({ where: { id }, select: { namespaceId: true, deletedAt: true, version: true } });

async function saveIn(namespace: string, id: string, route = `/${id}`) {
  const res = await goCall(mocks.POST, "/api/v1/mocks", { method: "POST", body: { id, namespace, http: { route, httpMethod: "GET" }, response: { statusCode: 200, payload: "ok" } } });
  expect(res.status, res.text).toBe(200);
}

describe("the namespace named in a JSON body", () => {
  it("POST /mocks saves where the body says, and says so", async () => {
    const raw = '{"id":"go-made","namespace":"team-a","http":{"route":"/go","httpMethod":"GET"},"response":{"statusCode":200,"payload":"hi"}}';
    const res = await goCall(mocks.POST, "/api/v1/mocks", { method: "POST", rawBody: raw, headers: { "content-type": "application/json" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.mock).toMatchObject({ id: "go-made", namespace: "team-a" });
    expect(await mockRows("go-made")).toEqual([expect.objectContaining({ namespaceId: ns["team-a"] })]);
  });

  it("counts like the query: 404 for a namespace the caller cannot read, 403 without write there", async () => {
    const secret = await goCall(mocks.POST, "/api/v1/mocks", { method: "POST", body: { id: "nope-1", namespace: "secret", http: { route: "/s" } } });
    expect(secret.status).toBe(404);
    expect(secret.body).toMatchObject({ code: "not_found" });
    const viewer = await goCall(mocks.POST, "/api/v1/mocks", { method: "POST", body: { id: "nope-2", namespace: "viewonly", http: { route: "/v" } } });
    expect(viewer.status).toBe(403);
    expect(await db().mock.count({ where: { id: { in: ["nope-1", "nope-2"] } } })).toBe(0);
  });

  it("a body that disagrees with the query or header is a 400 naming the field, and nothing is written", async () => {
    const byQuery = await goCall(mocks.POST, "/api/v1/mocks?namespace=team-b", { method: "POST", body: { id: "torn-1", namespace: "team-a", http: { route: "/t" } } });
    expect(byQuery.status).toBe(400);
    expect(byQuery.body).toMatchObject({ code: "validation", details: [{ location: "body", field: "namespace" }] });
    const byHeader = await pyCall(mocks.POST, "/api/v1/mocks", "team-b", { method: "POST", body: { id: "torn-2", namespace: "team-a", http: { route: "/t" } } });
    expect(byHeader.status).toBe(400);
    expect(await db().mock.count({ where: { id: { in: ["torn-1", "torn-2"] } } })).toBe(0);
    // Agreeing is fine, and an empty name names nothing.
    const agree = await pyCall(mocks.POST, "/api/v1/mocks", "team-b", { method: "POST", body: { id: "torn-3", namespace: "team-b", http: { route: "/t3" } } });
    expect(agree.body.mock).toMatchObject({ namespace: "team-b" });
    const empty = await pyCall(mocks.POST, "/api/v1/mocks", "team-b", { method: "POST", body: { id: "torn-4", namespace: "", http: { route: "/t4" } } });
    expect(empty.body.mock).toMatchObject({ namespace: "team-b" });
  });

  it("a NUL in the body's namespace is a 400, not a database error", async () => {
    const res = await goCall(mocks.POST, "/api/v1/mocks", { method: "POST", body: { namespace: "team\u0000a", http: { route: "/nul" } } });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ field: "namespace" });
  });

  it("POST /mocks/batch: items naming one namespace are saved there; items that disagree are a 400 naming mocks[i].namespace", async () => {
    const ok = await goCall(batch.POST, "/api/v1/mocks/batch", {
      method: "POST",
      body: [
        { id: "b-1", namespace: "team-a", http: { route: "/b1" } },
        { id: "b-2", http: { route: "/b2" } },
        { id: "b-3", namespace: "team-a", http: { route: "/b3" } },
      ],
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.mocks.map((m: { namespace: string }) => m.namespace)).toEqual(["team-a", "team-a", "team-a"]);
    expect(await db().mock.count({ where: { id: { in: ["b-1", "b-2", "b-3"] }, namespaceId: ns["team-a"] } })).toBe(3);

    const torn = await goCall(batch.POST, "/api/v1/mocks/batch", {
      method: "POST",
      body: [
        { id: "b-4", namespace: "team-a", http: { route: "/b4" } },
        { id: "b-5", namespace: "team-b", http: { route: "/b5" } },
      ],
    });
    expect(torn.status).toBe(400);
    expect(torn.body.error).toContain("mocks[1].namespace");
    expect(torn.body.details).toEqual([expect.objectContaining({ location: "body", field: "1.namespace" })]);
    const againstHeader = await pyCall(batch.POST, "/api/v1/mocks/batch", "team-b", { method: "POST", body: [{ id: "b-6", namespace: "team-a", http: { route: "/b6" } }] });
    expect(againstHeader.status).toBe(400);
    expect(againstHeader.body.details[0]).toMatchObject({ field: "0.namespace" });
    expect(await db().mock.count({ where: { id: { in: ["b-4", "b-5", "b-6"] } } })).toBe(0);
  });

  it("folders, tags and store writes honour it too", async () => {
    const folder = await goCall(folders.POST, "/api/v1/mock-folders", { method: "POST", body: { name: "go-folder", namespace: "team-a" } });
    expect(folder.status, folder.text).toBe(201);
    expect(await db().mockFolder.findFirst({ where: { name: "go-folder" }, select: { namespaceId: true } })).toEqual({ namespaceId: ns["team-a"] });

    const tag = await goCall(tags.POST, "/api/v1/tags", { method: "POST", body: { tag: "go-tag", namespace: "team-b" } });
    expect(tag.status, tag.text).toBe(201);
    expect(tag.body).toMatchObject({ name: "go-tag" });
    expect(await db().tag.findFirst({ where: { name: "go-tag" }, select: { namespaceId: true } })).toEqual({ namespaceId: ns["team-b"] });

    const store = await goCall(globalStore.POST, "/api/v1/stores/global", { method: "POST", body: { key: "k", value: 1, namespace: "team-a" } });
    expect(store.status, store.text).toBe(200);
    expect(store.body).toMatchObject({ namespace: "team-a" });
    const tornStore = await pyCall(globalStore.POST, "/api/v1/stores/global", "team-b", { method: "POST", body: { key: "k", value: 1, namespace: "team-a" } });
    expect(tornStore.status).toBe(400);
  });

  it("template and temporary-file uploads honour a multipart `namespace` part", async () => {
    // The bytes a hand-built multipart body carries (Java's HttpClient has no multipart encoder).
    const form = (namespace: string, fileName: string) =>
      [`--XyZ`, `Content-Disposition: form-data; name="namespace"`, ``, namespace, `--XyZ`, `Content-Disposition: form-data; name="file"; filename="${fileName}"`, `Content-Type: text/plain`, ``, `hello`, `--XyZ--`, ``].join("\r\n");
    const multipart = { "content-type": "multipart/form-data; boundary=XyZ" };
    const saved = await goCall(template.POST, "/api/v1/templates/greeting.txt", { method: "POST", params: { fileName: "greeting.txt" }, rawBody: form("team-a", "greeting.txt"), headers: multipart });
    expect(saved.status, saved.text).toBe(201);
    expect(await db().templateFile.findFirst({ where: { fileName: "greeting.txt" }, select: { namespaceId: true } })).toEqual({ namespaceId: ns["team-a"] });
    const torn = await pyCall(template.POST, "/api/v1/templates/torn.txt", "team-b", { method: "POST", params: { fileName: "torn.txt" }, rawBody: form("team-a", "torn.txt"), headers: multipart });
    expect(torn.status).toBe(400);
    expect(torn.body.details[0]).toMatchObject({ location: "body", field: "namespace" });
    const secret = await goCall(template.POST, "/api/v1/templates/s.txt", { method: "POST", params: { fileName: "s.txt" }, rawBody: form("secret", "s.txt"), headers: multipart });
    expect(secret.status).toBe(404);

    const temp = await goCall(tempFiles.POST, "/api/v1/temp-files", { method: "POST", rawBody: form("team-b", "notes.txt"), headers: multipart });
    expect(temp.status, temp.text).toBe(201);
    expect(await db().tempFile.findUnique({ where: { id: temp.body.id }, select: { namespaceId: true } })).toEqual({ namespaceId: ns["team-b"] });
  });

  it("copy-to-namespace is not steered by a namespace header: source and target come from its body", async () => {
    await saveIn("team-a", "cp-src");
    const res = await pyCall(copy.POST, "/api/v1/mocks/copy-to-namespace", "viewonly", { method: "POST", body: { sourceNamespace: "team-a", targetNamespace: "team-b", mockIds: ["cp-src"] } });
    expect(res.status, res.text).toBe(200);
    expect((await mockRows("cp-src")).map((r) => r.namespaceId).sort()).toEqual([ns["team-a"], ns["team-b"]].sort());
  });
});

describe("id-only mock routes", () => {
  it("GET, PATCH, DELETE, restore and purge find the mock without a namespace", async () => {
    await saveIn("team-a", "solo");
    const got = await goCall(mockOne.GET, "/api/v1/mocks/solo", { params: { id: "solo" } });
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ id: "solo", namespace: "team-a", deleted: false });
    expect(got.body.closedAt).toBeUndefined();

    const patched = await goCall(mockOne.PATCH, "/api/v1/mocks/solo", { method: "PATCH", params: { id: "solo" }, body: { priority: 7 } });
    expect(patched.status, patched.text).toBe(200);
    expect((await db().mock.findFirstOrThrow({ where: { id: "solo" } })).priority).toBe(7);

    const removed = await goCall(mockOne.DELETE, "/api/v1/mocks/solo", { method: "DELETE", params: { id: "solo" } });
    expect(removed.status).toBe(200);
    expect(removed.headers.get("content-type")).toContain("application/json");
    const row = await db().mock.findFirstOrThrow({ where: { id: "solo" } });
    expect(row.deletedAt).not.toBeNull();
    // closedAt is milliseconds like createdAt, the same instant as deletedAt.
    expect(removed.body).toMatchObject({ deleted: true, closedAt: row.deletedAt!.getTime(), deletedAt: row.deletedAt!.getTime() });
    const binned = await goCall(mockOne.GET, "/api/v1/mocks/solo", { params: { id: "solo" } });
    expect(binned.body.closedAt).toBe(row.deletedAt!.getTime());
    expect(binned.body.createdAt).toBe(row.createdAt.getTime());

    const restored = await goCall(restore.POST, "/api/v1/mocks/solo/restore", { method: "POST", params: { id: "solo" } });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({ id: "solo", namespace: "team-a", deleted: false, deletedAt: null });
    expect(restored.body.closedAt).toBeUndefined();
    const afterRestore = await db().mock.findFirstOrThrow({ where: { id: "solo" } });
    expect(afterRestore.deletedAt).toBeNull();
    // Restoring an active mock is a safe retry: the same mock, no new version.
    const again = await goCall(restore.POST, "/api/v1/mocks/solo/restore", { method: "POST", params: { id: "solo" } });
    expect(again.status).toBe(200);
    expect((await db().mock.findFirstOrThrow({ where: { id: "solo" } })).version).toBe(afterRestore.version);

    const purged = await goCall(purge.DELETE, "/api/v1/mocks/solo/purge", { method: "DELETE", params: { id: "solo" } });
    expect(purged.status).toBe(200);
    expect(purged.body).toEqual({ id: "solo", purged: true });
    expect(await mockRows("solo")).toEqual([]);
    expect((await goCall(restore.POST, "/api/v1/mocks/solo/restore", { method: "POST", params: { id: "solo" } })).status).toBe(404);
  });

  it("versions, one version, version restore and logs find it too", async () => {
    await saveIn("team-b", "histo");
    await goCall(mockOne.PATCH, "/", { method: "PATCH", params: { id: "histo" }, body: { priority: 3 } });
    const list = await goCall(versions.GET, "/api/v1/mocks/histo/versions", { params: { id: "histo" } });
    expect(list.status, list.text).toBe(200);
    expect(list.body.count).toBe(2);
    const one = await goCall(versionOne.GET, "/api/v1/mocks/histo/versions/1", { params: { id: "histo", version: "1" } });
    expect(one.status).toBe(200);
    const back = await goCall(versionRestore.POST, "/api/v1/mocks/histo/versions/1/restore", { method: "POST", params: { id: "histo", version: "1" } });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ namespace: "team-b", priority: 0, version: 3 });
    const log = await goCall(logs.GET, "/api/v1/mocks/histo/logs", { params: { id: "histo" } });
    expect(log.status, log.text).toBe(200);
    expect(log.body).toMatchObject({ id: "histo", requests: [] });
  });

  it("a named namespace narrows the lookup", async () => {
    await saveIn("team-a", "narrow");
    expect((await goCall(mockOne.GET, "/api/v1/mocks/narrow?namespace=team-b", { params: { id: "narrow" } })).status).toBe(404);
    expect((await pyCall(mockOne.GET, "/api/v1/mocks/narrow", "team-b", { params: { id: "narrow" } })).status).toBe(404);
    expect((await pyCall(mockOne.GET, "/api/v1/mocks/narrow", "team-a", { params: { id: "narrow" } })).status).toBe(200);
  });

  it("an id in two of the caller's namespaces is a 409 naming them, until a namespace is named", async () => {
    await saveIn("team-a", "twin");
    const copied = await goCall(copy.POST, "/api/v1/mocks/copy-to-namespace", { method: "POST", body: { sourceNamespace: "team-a", targetNamespace: "team-b", mockIds: ["twin"] } });
    expect(copied.body.copied).toEqual([{ sourceId: "twin", id: "twin" }]);

    for (const [handler, method, url, params] of [
      [mockOne.GET, "GET", "/api/v1/mocks/twin", { id: "twin" }],
      [mockOne.DELETE, "DELETE", "/api/v1/mocks/twin", { id: "twin" }],
      [purge.DELETE, "DELETE", "/api/v1/mocks/twin/purge", { id: "twin" }],
      [versions.GET, "GET", "/api/v1/mocks/twin/versions", { id: "twin" }],
    ] as const) {
      const res = await goCall(handler, url, { method, params });
      expect(res.status, `${method} ${url}`).toBe(409);
      expect(res.body).toMatchObject({ code: "conflict", namespaces: ["team-a", "team-b"] });
      expect(res.body.error).toContain("team-a");
    }
    expect((await mockRows("twin")).every((r) => r.deletedAt === null)).toBe(true);

    const deleted = await pyCall(mockOne.DELETE, "/api/v1/mocks/twin", "team-b", { method: "DELETE", params: { id: "twin" } });
    expect(deleted.body).toMatchObject({ namespace: "team-b", deleted: true });
    const rows = await db().mock.findMany({ where: { id: "twin" }, select: { namespaceId: true, deletedAt: true } });
    expect(rows.find((r) => r.namespaceId === ns["team-a"])!.deletedAt).toBeNull();
    expect(rows.find((r) => r.namespaceId === ns["team-b"])!.deletedAt).not.toBeNull();

    // A credential pinned to team-b only sees team-b's copy: not ambiguous for it.
    const pinned = await call(mockOne.GET, "/api/v1/mocks/twin", { token: pinnedKey, params: { id: "twin" } });
    expect(pinned.status, pinned.text).toBe(200);
    expect(pinned.body).toMatchObject({ namespace: "team-b" });
  });

  it("a mock in a namespace the caller cannot read stays 404 and does not make an id ambiguous", async () => {
    await db().mock.create({ data: { id: "hidden", namespaceId: ns.secret, protocol: "http", definition: {}, createdBy: "stranger" } });
    expect((await goCall(mockOne.GET, "/api/v1/mocks/hidden", { params: { id: "hidden" } })).status).toBe(404);
    expect((await goCall(purge.DELETE, "/api/v1/mocks/hidden/purge", { method: "DELETE", params: { id: "hidden" } })).status).toBe(404);
    await saveIn("team-a", "hidden");
    const mine = await goCall(mockOne.GET, "/api/v1/mocks/hidden", { params: { id: "hidden" } });
    expect(mine.status).toBe(200);
    expect(mine.body.namespace).toBe("team-a");
  });

  it("write and delete are checked in the namespace where the mock was found", async () => {
    await db().mock.create({ data: { id: "looked-at", namespaceId: ns.viewonly, protocol: "http", definition: { http: { route: "/l" } }, createdBy: "stranger" } });
    expect((await goCall(mockOne.GET, "/api/v1/mocks/looked-at", { params: { id: "looked-at" } })).status).toBe(200);
    expect((await goCall(mockOne.PATCH, "/", { method: "PATCH", params: { id: "looked-at" }, body: { priority: 1 } })).status).toBe(403);
    expect((await goCall(mockOne.DELETE, "/", { method: "DELETE", params: { id: "looked-at" } })).status).toBe(403);
    expect((await goCall(purge.DELETE, "/", { method: "DELETE", params: { id: "looked-at" } })).status).toBe(403);
    expect(await mockRows("looked-at")).toEqual([expect.objectContaining({ deletedAt: null, version: 1 })]);
  });
});

describe("shapes the clients decode", () => {
  it("GET /namespaces lists names; ?detail=1 gives the rows", async () => {
    const names = await goCall(namespaces.GET, "/api/v1/namespaces");
    expect(names.status).toBe(200);
    expect(names.body).toEqual({ namespaces: ["team-a", "team-b", "viewonly"], count: 3 });
    const detail = await goCall(namespaces.GET, "/api/v1/namespaces?detail=1");
    expect(detail.body.namespaces[0]).toMatchObject({ name: "team-a", role: "editor", permissions: ["read", "write", "delete"] });
  });

  it("POST /tags takes {tag} or {name}; both given must agree", async () => {
    expect((await pyCall(tags.POST, "/api/v1/tags", "team-a", { method: "POST", body: { name: "by-name" } })).status).toBe(201);
    expect((await pyCall(tags.POST, "/api/v1/tags", "team-a", { method: "POST", body: { tag: "by-tag", color: "#fff" } })).body).toMatchObject({ name: "by-tag", color: "#fff" });
    const neither = await pyCall(tags.POST, "/api/v1/tags", "team-a", { method: "POST", body: { color: "#fff" } });
    expect(neither.status).toBe(400);
    expect(neither.body.details[0]).toMatchObject({ field: "name" });
    const both = await pyCall(tags.POST, "/api/v1/tags", "team-a", { method: "POST", body: { name: "x", tag: "y" } });
    expect(both.status).toBe(400);
    expect(await db().tag.count({ where: { namespaceId: ns["team-a"], name: { in: ["by-name", "by-tag"] } } })).toBe(2);
  });

  it("the OpenAPI document has the new route, the namespace fallback and the 409", () => {
    const doc = buildOpenApi("test") as { paths: Record<string, Record<string, { parameters: { name: string; description?: string }[]; responses: Record<string, unknown> }>> };
    expect(doc.paths["/api/v1/mocks/{id}/restore"].post.responses).toHaveProperty("200");
    for (const [path, method] of [["/api/v1/mocks/{id}", "get"], ["/api/v1/mocks/{id}", "patch"], ["/api/v1/mocks/{id}", "delete"], ["/api/v1/mocks/{id}/purge", "delete"], ["/api/v1/mocks/{id}/logs", "get"], ["/api/v1/mocks/{id}/restore", "post"]] as const) {
      expect(doc.paths[path][method].responses, `${method} ${path}`).toHaveProperty("409");
      expect(doc.paths[path][method].parameters.find((p) => p.name === "namespace")?.description).toContain("every namespace the caller can read");
    }
    expect(doc.paths["/api/v1/namespaces"].get.parameters.map((p) => p.name)).toContain("detail");
    // A query contract that declares `namespace` still gives one parameter of that name.
    expect(doc.paths["/api/v1/mocks"].get.parameters.filter((p) => p.name === "namespace")).toHaveLength(1);
  });

  it("every endpoint answers its 2xx with a body (JSON, or the file it declares): no empty 204", () => {
    const empty = allEndpoints.filter((e) => (!e.response && !e.produces) || e.successStatus === 204).map((e) => `${e.method} ${e.path}`);
    expect(empty).toEqual([]);
  });
});
