// The import core against a real database: the native import route (raw
// body, {data}, {content}; 200, the spec's 207 partial failure, 400 naming
// the location), export → import → export round trip, preview writing
// nothing, and a failure while writing leaving no rows behind.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "@/app/api/v1/api-tester/collections/route";
import * as exportRoute from "@/app/api/v1/api-tester/collections/[id]/export/route";
import * as foldersRoute from "@/app/api/v1/api-tester/collections/[id]/folders/route";
import * as requestsRoute from "@/app/api/v1/api-tester/collections/[id]/requests/route";
import * as nativeRoute from "@/app/api/v1/api-tester/import/mockarty/route";
import * as postmanRoute from "@/app/api/v1/api-tester/import/postman/route";
import * as postmanEnvRoute from "@/app/api/v1/api-tester/import/postman-env/route";
import { createCaller } from "@/server/api/root";
import type { TrpcContext } from "@/server/api/trpc";
import { SECRET_MASK } from "@/server/contracts/tester-request";
import { db } from "@/server/db/client";
import { actorFor, call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { resolveNamespace } from "../namespace-access";
import { loadCollectionForRun } from "./collection-tree";
import { loadEnvironmentForRun } from "./environments";
import { importCollectionDocument } from "./import-collection";

useTestDatabase();

const NS = "importing";
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
const importNative = (opts: { body?: unknown; rawBody?: string; query?: string; cookie?: string; headers?: Record<string, string> }) =>
  call(nativeRoute.POST, `/api/v1/api-tester/import/mockarty?${opts.query ?? `namespace=${NS}`}`, { method: "POST", body: opts.body, rawBody: opts.rawBody, headers: opts.headers, cookie: opts.cookie ?? owner });
const exportOf = (id: string) => call(exportRoute.GET, `${base}/${id}/export?namespace=${NS}`, { cookie: owner, params: { id } });
const rowCounts = async () => ({ collections: await db().testerCollection.count(), folders: await db().testerFolder.count(), requests: await db().testerRequest.count() });

async function builtCollection() {
  const c = await call(listRoute.POST, `${base}?namespace=${NS}`, {
    method: "POST",
    cookie: owner,
    body: {
      name: "Shop",
      description: "orders and users",
      variables: [
        { key: "baseUrl", value: "http://shop.test" },
        { key: "apiKey", value: "k-42", secret: true },
        { key: "off", value: "x", enabled: false },
      ],
      auth: { type: "apikey", apikey: { key: "X-Key", value: "{{apiKey}}", in: "header" } },
      scripts: { preRequest: "pm.variables.set('t', Date.now())", test: "pm.test('status', () => pm.response.to.have.status(200))" },
    },
  });
  expect(c.status, c.text).toBe(201);
  const id = c.body.id as string;
  const folder = async (body: unknown) => (await call(foldersRoute.POST, `${base}/${id}/folders?namespace=${NS}`, { method: "POST", body, cookie: owner, params: { id } })).body.id as string;
  const request = async (body: unknown) => expect((await call(requestsRoute.POST, `${base}/${id}/requests?namespace=${NS}`, { method: "POST", body, cookie: owner, params: { id } })).status).toBe(201);
  const orders = await folder({ name: "Orders", description: "all about orders", auth: { type: "bearer", bearer: { token: "{{tok}}" } }, scripts: { test: "// folder" } });
  const archive = await folder({ name: "Archive", parentId: orders });
  await folder({ name: "Empty" });
  await request({ name: "Ping", url: "{{baseUrl}}/ping" });
  await request({ name: "Create order", folderId: orders, method: "POST", url: "{{baseUrl}}/orders", headers: [{ key: "Content-Type", value: "application/json" }, { key: "X-Off", value: "1", enabled: false }], body: { mode: "raw", raw: '{"sku":"A"}', language: "json" }, scripts: { test: "pm.test('created', () => pm.response.to.have.status(201))" } });
  await request({ name: "List orders", folderId: orders, url: "{{baseUrl}}/orders", params: [{ key: "page", value: "1" }] });
  await request({ name: "Old order", folderId: archive, url: "{{baseUrl}}/orders/old", auth: { type: "basic", basic: { username: "u", password: "p" } } });
  await request({ name: "Upload", method: "POST", url: "{{baseUrl}}/upload", body: { mode: "formdata", formdata: [{ key: "note", value: "hi" }, { key: "file", type: "file", fileName: "a.txt", contentBase64: "aGk=" }] } });
  return id;
}

const nativeDoc = (items: unknown[], collection: Record<string, unknown> = { name: "Partial" }) => ({ format: "polymock-collection", version: 1, collection, items });

describe("native import: round trip and body shapes", () => {
  it("export → import → export gives the same document (a secret comes back empty, to be filled in)", async () => {
    const id = await builtCollection();
    const first = await exportOf(id);
    expect(first.status, first.text).toBe(200);
    const imported = await importNative({ body: first.body });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body).toMatchObject({ name: "Shop", source: "mockarty", preview: false, imported: { folders: 3, requests: 5, variables: 3 }, requestsCount: 8, summary: { importedFolders: 3, importedRequests: 5, failedCount: 0 }, failures: [] });
    expect(imported.body.collectionId).not.toBe(id);
    const second = await exportOf(imported.body.collectionId);
    const strip = (doc: any) => ({ ...doc, exportedAt: undefined });
    const expected = strip(first.body);
    expected.collection.variables = expected.collection.variables.map((v: any) => (v.value === SECRET_MASK ? { ...v, value: "" } : v));
    expect(strip(second.body)).toEqual(expected);
    // The stored secret is empty, not the mask.
    const scope = await resolveNamespace(actorFor(ownerUser), NS);
    expect((await loadCollectionForRun(scope, imported.body.collectionId)).variables.find((v) => v.key === "apiKey")).toEqual({ key: "apiKey", value: "", secret: true, enabled: true });
  });

  it("takes the document as {data}, {content} (with namespace and name beside it) or the raw body", async () => {
    const doc = nativeDoc([{ type: "request", name: "One", request: { url: "http://x.test/1" } }], { name: "Wrapped" });
    const data = await importNative({ body: { data: JSON.stringify(doc), namespace: NS, name: "Named by field" }, query: "" });
    expect(data.status, data.text).toBe(200);
    expect(data.body.name).toBe("Named by field");
    expect((await db().testerCollection.findUniqueOrThrow({ where: { id: data.body.collectionId }, include: { namespace: true } })).namespace.name).toBe(NS);
    const content = await importNative({ body: { content: JSON.stringify(doc) } });
    expect(content.status, content.text).toBe(200);
    const raw = await importNative({ rawBody: JSON.stringify(doc), headers: { "content-type": "text/plain" }, query: `namespace=${NS}&name=From%20query` });
    expect(raw.status, raw.text).toBe(200);
    expect(raw.body.name).toBe("From query");
    // The wrapper may not name another namespace than the query.
    const clash = await importNative({ body: { data: JSON.stringify(doc), namespace: "sandbox" } });
    expect(clash.status).toBe(400);
    expect(clash.body.details[0]).toMatchObject({ location: "body", field: "namespace" });
  });

  it("preview answers the tree and counts and writes nothing", async () => {
    const before = await rowCounts();
    const res = await importNative({
      body: nativeDoc([
        { type: "folder", name: "F", items: [{ type: "request", name: "In F", request: { method: "post", url: "http://x.test/f" } }] },
        { type: "request", name: "Root", request: { url: "http://x.test/r" } },
      ]),
      query: `namespace=${NS}&preview=true`,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ collectionId: null, preview: true, requestsCount: 3, summary: { importedFolders: 1, importedRequests: 2 } });
    expect(res.body.tree).toEqual([
      { type: "folder", name: "F", items: [{ type: "request", name: "In F", method: "POST", url: "http://x.test/f", kind: "http" }] },
      { type: "request", name: "Root", method: "GET", url: "http://x.test/r", kind: "http" },
    ]);
    expect(await rowCounts()).toEqual(before);
  });
});

describe("native import: 207 partial failure and 400", () => {
  it("207: bad requests and a bad folder (its items skipped) fail; the rest is saved and counted", async () => {
    const res = await importNative({
      body: nativeDoc([
        { type: "request", name: "Good root", request: { url: "http://x.test/ok" } },
        { type: "request", name: "No URL", request: { method: "GET" } },
        { type: "folder", name: "", items: [{ type: "request", name: "Skipped", request: { url: "http://x.test/s" } }, { type: "folder", name: "Skipped too" }] },
        { type: "folder", name: "Kept", items: [{ type: "request", name: "Kept request", request: { url: "http://x.test/k" } }, { type: "request", name: "Bad method", request: { url: "http://x.test/b", method: "G E T" } }] },
        { type: "widget", name: "What" },
      ]),
    });
    expect(res.status, res.text).toBe(207);
    expect(res.body).toMatchObject({ requestsCount: 3, imported: { folders: 1, requests: 2 }, summary: { importedRequests: 2, importedFolders: 1, failedCount: 4 } });
    expect(res.body.failures).toEqual([
      { path: "items[1]", name: "No URL", type: "request", reason: expect.stringContaining("request.url") },
      { path: "items[2]", name: "", type: "folder", reason: expect.stringMatching(/name: must not be empty \(2 items inside skipped\)/) },
      { path: "items[3].items[1]", name: "Bad method", type: "request", reason: expect.stringContaining("letters only") },
      { path: "items[4]", name: "What", reason: 'type: must be "folder" or "request"' },
    ]);
    const saved = await db().testerCollection.findUniqueOrThrow({ where: { id: res.body.collectionId }, include: { folders: true, requests: true } });
    expect(saved.folders.map((f) => f.name)).toEqual(["Kept"]);
    expect(saved.requests.map((r) => r.name).sort()).toEqual(["Good root", "Kept request"]);
  });

  it("lists at most 50 failures but counts them all", async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ type: "request", name: `bad ${i}` }));
    const res = await importNative({ body: nativeDoc([...items, { type: "request", name: "fine", request: { url: "http://x.test" } }]) });
    expect(res.status).toBe(207);
    expect(res.body.summary.failedCount).toBe(60);
    expect(res.body.failures).toHaveLength(50);
    expect(res.body.summary.importedRequests).toBe(1);
  });

  it("400 naming the location when the top level is wrong; nothing is written", async () => {
    const before = await rowCounts();
    const notJson = await importNative({ rawBody: "{ not json", headers: { "content-type": "text/plain" } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.details[0]).toMatchObject({ location: "body" });
    const wrongFormat = await importNative({ body: { ...nativeDoc([]), format: "postman" } });
    expect(wrongFormat.status).toBe(400);
    expect(wrongFormat.body.details[0]).toMatchObject({ location: "body", field: "format" });
    const wrongVersion = await importNative({ body: { ...nativeDoc([]), version: 2 } });
    expect(wrongVersion.status).toBe(400);
    expect(wrongVersion.body.details[0]).toMatchObject({ location: "body", field: "version" });
    const noName = await importNative({ body: nativeDoc([], { description: "no name" }) });
    expect(noName.status).toBe(400);
    expect(noName.body.details[0]).toMatchObject({ location: "body", field: "collection.name" });
    const itemsNotArray = await importNative({ body: { ...nativeDoc([]), items: {} } });
    expect(itemsNotArray.status).toBe(400);
    expect(itemsNotArray.body.details[0]).toMatchObject({ location: "body", field: "items" });
    const tooMany = await importNative({ body: nativeDoc(Array.from({ length: 5001 }, (_, i) => ({ type: "request", name: `r${i}`, request: { url: "http://x.test" } }))) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details[0]).toMatchObject({ location: "body", field: "items" });
    expect(await rowCounts()).toEqual(before);
  });

  it("a failure while writing leaves no rows behind (one transaction)", async () => {
    const before = await rowCounts();
    const scope = await resolveNamespace(actorFor(ownerUser), NS);
    // PostgreSQL text refuses U+0000: the folder rows fail after the collection row was written.
    const doc = nativeDoc([{ type: "folder", name: "bad\u0000name", items: [{ type: "request", name: "r", request: { url: "http://x.test" } }] }], { name: "Half" });
    await expect(importCollectionDocument(actorFor(ownerUser), scope, doc as any)).rejects.toThrow();
    expect(await rowCounts()).toEqual(before);
    expect(await db().testerCollection.count({ where: { name: "Half" } })).toBe(0);
  });

  it("who may import: a viewer is refused, a namespace the caller cannot read is 404", async () => {
    const doc = nativeDoc([], { name: "Nope" });
    expect((await importNative({ body: doc, cookie: viewer })).status).toBe(403);
    expect((await importNative({ body: doc, cookie: outsider })).status).toBe(404);
    expect((await importNative({ body: { data: JSON.stringify(doc), namespace: NS }, cookie: outsider, query: "" })).status).toBe(404);
    expect((await importNative({ body: doc, query: "" })).body).toMatchObject({ name: "Nope" });
  });
});

const newmanFixture = (name: string) => readFileSync(path.join(import.meta.dirname, "../../tester/import/__fixtures__/newman", name), "utf8");
const importPostman = (body: unknown, query = `namespace=${NS}`) => call(postmanRoute.POST, `/api/v1/api-tester/import/postman?${query}`, { method: "POST", body, cookie: owner });
const importEnv = (body: unknown, query = `namespace=${NS}`) => call(postmanEnvRoute.POST, `/api/v1/api-tester/import/postman-env?${query}`, { method: "POST", body, cookie: owner });

describe("Postman imports over REST", () => {
  it("a Newman fixture (raw body) becomes a collection with folders, scripts, auth and variables; unsupported auth is a warning", async () => {
    const res = await call(postmanRoute.POST, `/api/v1/api-tester/import/postman?namespace=${NS}`, { method: "POST", rawBody: newmanFixture("inherited-entities.postman_collection.json"), headers: { "content-type": "application/json" }, cookie: owner });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "Inherited Entities", source: "postman", imported: { folders: 3, requests: 8, variables: 3 }, requestsCount: 11, summary: { failedCount: 0, warningCount: 2 } });
    expect(res.body.warnings.map((w: { path: string }) => w.path)).toEqual(["item[1]", "item[2].item[0]"]);
    const scope = await resolveNamespace(actorFor(ownerUser), NS);
    const loaded = await loadCollectionForRun(scope, res.body.collectionId);
    expect(loaded.auth).toEqual({ type: "basic", basic: { username: "postman", password: "password" } });
    expect(loaded.scripts.preRequest).toContain("collectionScriptURL");
    expect(loaded.requests.map((r) => [r.path.join("/"), r.name])).toEqual([
      ["Collection level stuff", "Variables"],
      ["Collection level stuff", "Auth"],
      ["Collection level stuff", "Events"],
      ["Folder level stuff", "Auth"],
      ["Folder level stuff", "Event"],
      ["Request level stuff", "Auth"],
      ["", "Auth override"],
      ["", "Environment override"],
    ]);
  });

  it("{data} wrapper and preview: the tree comes back, nothing is written", async () => {
    const before = await rowCounts();
    const res = await importPostman({ data: newmanFixture("multi-level-folders-v2.postman_collection.json") }, `namespace=${NS}&preview=true`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ collectionId: null, preview: true, imported: { folders: 4, requests: 6 } });
    expect(res.body.tree[1]).toMatchObject({ type: "folder", name: "F2", items: [{ type: "folder", name: "F2.F3" }, { type: "folder", name: "F4", items: [] }, { type: "request", name: "F2.R1" }] });
    expect(await rowCounts()).toEqual(before);
  });

  it("207 when an item does not convert; 400 naming the location for a v1 collection, nothing written", async () => {
    const partial = await importPostman({ info: { name: "Mixed", schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json" }, item: [{ name: "ok", request: { url: "http://x.test" } }, { name: "bad", request: { url: "http://x.test", method: "NOT A METHOD" } }] });
    expect(partial.status, partial.text).toBe(207);
    expect(partial.body).toMatchObject({ summary: { importedRequests: 1, failedCount: 1 }, failures: [{ path: "item[1]", name: "bad", type: "request" }] });
    expect(partial.body.collectionId).toEqual(expect.any(String));
    const before = await rowCounts();
    const v1 = await importPostman({ id: "x", name: "old", order: [], requests: [] });
    expect(v1.status).toBe(400);
    expect(v1.body.details).toEqual([{ location: "body", field: "requests", message: "a v1 collection" }]);
    const notJson = await importPostman({ content: "<xml/>" });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toMatch(/not JSON/);
    expect(await rowCounts()).toEqual(before);
  });

  it("a Postman environment: secret values stored sealed, disabled ones left out with a warning; preview writes nothing", async () => {
    const doc = { name: "Staging", values: [{ key: "host", value: "staging.test", enabled: true }, { key: "token", value: "t0k-secret", type: "secret", enabled: true }, { key: "old", value: "x", enabled: false }] };
    const preview = await importEnv(doc, `namespace=${NS}&preview=true`);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({ environmentId: null, preview: true, imported: { variables: 2, secrets: 1 } });
    expect(await db().testerEnvironment.count({ where: { name: "Staging" } })).toBe(0);
    const res = await importEnv({ content: JSON.stringify(doc) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "Staging", source: "postman-env", imported: { variables: 2, secrets: 1 }, variables: [{ key: "host", secret: false }, { key: "token", secret: true }], warnings: [{ path: "values[2]", message: "'old' is disabled; left out" }] });
    const row = await db().testerEnvironment.findUniqueOrThrow({ where: { id: res.body.environmentId } });
    expect(JSON.stringify(row.variables)).not.toContain("t0k-secret");
    const scope = await resolveNamespace(actorFor(ownerUser), NS);
    expect((await loadEnvironmentForRun(scope, res.body.environmentId)).values).toEqual({ host: "staging.test", token: "t0k-secret" });
    const bad = await importEnv({ info: { name: "a collection" }, item: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]).toMatchObject({ location: "body", field: "values" });
  });
});

describe("imports over tRPC (the UI)", () => {
  it("apiTester.imports: preview, then import of a Postman collection and a native document; a bad document is BAD_REQUEST", async () => {
    const api = createCaller({ actor: actorFor(ownerUser), authError: null, ip: "127.0.0.1", userAgent: null, requestId: "test" } satisfies TrpcContext).apiTester.imports;
    const document = newmanFixture("sample-collection.json");
    const before = await rowCounts();
    const preview = await api.postman({ namespace: NS, document, preview: true });
    expect(preview).toMatchObject({ collectionId: null, preview: true, imported: { requests: 3 } });
    expect(await rowCounts()).toEqual(before);
    const saved = await api.postman({ namespace: NS, document, name: "Sample via tRPC" });
    expect(saved).toMatchObject({ name: "Sample via tRPC", imported: { requests: 3 } });
    const native = await api.native({ namespace: NS, document: JSON.stringify(nativeDoc([{ type: "request", name: "r", request: { url: "http://x.test" } }], { name: "Native via tRPC" })) });
    expect(native.collectionId).toEqual(expect.any(String));
    await expect(api.native({ namespace: NS, document: "nope" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const env = await api.postmanEnvironment({ namespace: NS, document: newmanFixture("inherited-entities.postman_environment.json") });
    expect(env.imported.variables).toBe(2);
  });
});
