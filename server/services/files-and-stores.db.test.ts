import { randomBytes } from "node:crypto";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import * as chainKeyRoute from "@/app/api/v1/stores/chain/[id]/[key]/route";
import * as chainRoute from "@/app/api/v1/stores/chain/[id]/route";
import * as globalKeyRoute from "@/app/api/v1/stores/global/[key]/route";
import * as globalRoute from "@/app/api/v1/stores/global/route";
import * as tempFileRoute from "@/app/api/v1/temp-files/[fileId]/route";
import * as tempFilesRoute from "@/app/api/v1/temp-files/route";
import * as templateRoute from "@/app/api/v1/templates/[fileName]/route";
import * as templatesRoute from "@/app/api/v1/templates/route";
import { STORE_MAX_KEYS, STORE_VALUE_MAX_BYTES } from "@/server/contracts/store-endpoints";
import { TEMP_FILE_LIFETIME_MS, TEMPLATE_MAX_BYTES } from "@/server/contracts/file-endpoints";
import { databaseUrl, db, disconnectDb } from "@/server/db/client";
import { MOCKS_CHANNEL } from "@/server/db/notify";
import { AppError } from "@/server/errors";
import { GLOBAL, namespaceStores } from "@/server/services/stores";
import { readTempFile, sweepExpiredTempFiles, uploadTempFile } from "@/server/services/temp-files";
import { actorFor, call, makeNamespace, makeToken, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

interface Sent {
  status: number;
  headers: Headers;
  bytes: Buffer;
  json: any;
}

/** Like fixtures' call, for bodies that are not JSON (bytes, multipart). */
async function send(handler: Handler, url: string, opts: { method?: string; body?: BodyInit; headers?: Record<string, string>; cookie?: string; token?: string; params?: Record<string, string> } = {}): Promise<Sent> {
  const headers = new Headers(opts.headers);
  if (opts.cookie) headers.set("cookie", opts.cookie);
  if (opts.token) headers.set("x-api-key", opts.token);
  headers.set("x-polymock-peer", "127.0.0.1");
  const req = new Request(new URL(url, "http://localhost:5770"), { method: opts.method ?? "GET", headers, body: opts.body });
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: unknown = null;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch {}
  return { status: res.status, headers: res.headers, bytes, json };
}

function multipart(bytes: Uint8Array, type: string, fileName = "upload.bin"): FormData {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], fileName, { type }));
  return form;
}

let editor: Awaited<ReturnType<typeof makeUser>>["user"];
let cookie = "";
let viewerCookie = "";
let strangerCookie = "";
let soloCookie = "";
let sandboxId = "";
let teamId = "";

beforeAll(async () => {
  editor = (await makeUser()).user;
  sandboxId = (await makeNamespace("sandbox", { [editor.id]: "editor" })).id;
  teamId = (await makeNamespace("team", { [editor.id]: "editor" })).id;
  cookie = await sessionCookie(editor.id);
  const viewer = (await makeUser()).user;
  await db().membership.create({ data: { namespaceId: sandboxId, userId: viewer.id, role: "viewer" } });
  viewerCookie = await sessionCookie(viewer.id);
  // A second editor of sandbox: may use the namespace, but not someone else's temporary files.
  const stranger = (await makeUser()).user;
  await db().membership.create({ data: { namespaceId: sandboxId, userId: stranger.id, role: "editor" } });
  strangerCookie = await sessionCookie(stranger.id);
  // Member of one namespace only, not of sandbox.
  const solo = (await makeUser({ namespaces: { solo: "editor" } })).user;
  soloCookie = await sessionCookie(solo.id);
});

// ---- Stores ------------------------------------------------------------------------

describe("global store", () => {
  it("sets, reads and deletes one pair per request in the default namespace, keeping the engine's cache in step", async () => {
    const set = await call(globalRoute.POST, "/api/v1/stores/global", { method: "POST", cookie, body: { key: "user", value: { name: "Ada", age: 36 } } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ namespace: "sandbox", key: "user", value: { name: "Ada", age: 36 } });
    await call(globalRoute.POST, "/api/v1/stores/global", { method: "POST", cookie, body: { key: "count", value: 3 } });
    await call(globalRoute.POST, "/api/v1/stores/global", { method: "POST", cookie, body: { key: "nothing", value: null } });

    const got = await call(globalRoute.GET, "/api/v1/stores/global", { cookie });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ namespace: "sandbox", store: { count: 3, nothing: null, user: { name: "Ada", age: 36 } }, count: 3 });
    expect((await namespaceStores(sandboxId)).get(GLOBAL)?.get("count")).toBe(3);

    const removed = await call(globalKeyRoute.DELETE, "/api/v1/stores/global/count", { method: "DELETE", cookie, params: { key: "count" } });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ok: true });
    expect((await namespaceStores(sandboxId)).get(GLOBAL)?.has("count")).toBe(false);
    const again = await call(globalKeyRoute.DELETE, "/api/v1/stores/global/count", { method: "DELETE", cookie, params: { key: "count" } });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("not_found");
    expect((await call(globalRoute.GET, "/api/v1/stores/global", { cookie })).body.count).toBe(2);
  });

  it("takes the namespace from the query, the header, or the body", async () => {
    const byQuery = await call(globalRoute.POST, "/api/v1/stores/global?namespace=team", { method: "POST", cookie, body: { key: "q", value: "by query" } });
    expect(byQuery.body).toMatchObject({ namespace: "team", key: "q" });
    const byBody = await call(globalRoute.POST, "/api/v1/stores/global", { method: "POST", cookie, body: { key: "b", value: "by body", namespace: "team" } });
    expect(byBody.body).toMatchObject({ namespace: "team", key: "b" });
    const byHeader = await call(globalRoute.POST, "/api/v1/stores/global", { method: "POST", cookie, headers: { "X-Service-Namespace": "team" }, body: { key: "h", value: 1 } });
    expect(byHeader.body).toMatchObject({ namespace: "team", key: "h" });
    const agreeing = await call(globalRoute.POST, "/api/v1/stores/global?namespace=team", { method: "POST", cookie, body: { key: "a", value: 2, namespace: "team" } });
    expect(agreeing.status).toBe(200);

    const team = await call(globalRoute.GET, "/api/v1/stores/global?namespace=team", { cookie });
    expect(team.body).toEqual({ namespace: "team", store: { a: 2, b: "by body", h: 1, q: "by query" }, count: 4 });
    expect(Object.keys((await call(globalRoute.GET, "/api/v1/stores/global", { cookie })).body.store)).not.toContain("q");
    const deleted = await call(globalKeyRoute.DELETE, "/api/v1/stores/global/q?namespace=team", { method: "DELETE", cookie, params: { key: "q" } });
    expect(deleted.status).toBe(200);
  });

  it("a body namespace works for a caller who is not a member of sandbox; one the caller cannot read is 404; a contradiction is 400", async () => {
    const solo = await call(globalRoute.POST, "/api/v1/stores/global", { method: "POST", cookie: soloCookie, body: { key: "k", value: "v", namespace: "solo" } });
    expect(solo.status).toBe(200);
    expect(solo.body.namespace).toBe("solo");
    const hidden = await call(globalRoute.POST, "/api/v1/stores/global", { method: "POST", cookie: soloCookie, body: { key: "k", value: "v", namespace: "team" } });
    expect(hidden.status).toBe(404);
    const contradiction = await call(globalRoute.POST, "/api/v1/stores/global?namespace=sandbox", { method: "POST", cookie, body: { key: "k", value: "v", namespace: "team" } });
    expect(contradiction.status).toBe(400);
    expect(contradiction.body.details[0]).toMatchObject({ location: "body", field: "namespace" });
  });

  it("refuses bad input with a 4xx naming the field", async () => {
    const cases: [unknown, number, string][] = [
      [{ key: "", value: 1 }, 400, "key"],
      [{ key: "x".repeat(201), value: 1 }, 400, "key"],
      [{ key: "k" }, 400, "value"],
      [{ value: 1 }, 400, "key"],
      [{ key: "k", value: 1, extra: true }, 400, ""],
      [{ key: "k", value: 1, namespace: "Not A Name" }, 400, "namespace"],
      [{ key: "big", value: "x".repeat(STORE_VALUE_MAX_BYTES) }, 413, "value"],
    ];
    for (const [body, status, field] of cases) {
      const res = await call(globalRoute.POST, "/api/v1/stores/global", { method: "POST", cookie, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.body.details[0].field).toBe(field);
    }
    const malformed = await call(globalRoute.POST, "/api/v1/stores/global", { method: "POST", cookie, rawBody: "{nope", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect(await db().storeEntry.count({ where: { key: "big" } })).toBe(0);
  });

  it("a viewer reads but cannot write or delete", async () => {
    expect((await call(globalRoute.GET, "/api/v1/stores/global", { cookie: viewerCookie })).status).toBe(200);
    expect((await call(globalRoute.POST, "/api/v1/stores/global", { method: "POST", cookie: viewerCookie, body: { key: "v", value: 1 } })).status).toBe(403);
    expect((await call(globalKeyRoute.DELETE, "/", { method: "DELETE", cookie: viewerCookie, params: { key: "user" } })).status).toBe(403);
    expect((await call(chainRoute.POST, "/", { method: "POST", cookie: viewerCookie, params: { id: "c" }, body: { key: "v", value: 1 } })).status).toBe(403);
    expect((await call(chainKeyRoute.DELETE, "/", { method: "DELETE", cookie: viewerCookie, params: { id: "c", key: "v" } })).status).toBe(403);
  });
});

describe("chain store", () => {
  it("keeps each chain's pairs apart from the global store and from other chains", async () => {
    const set = await call(chainRoute.POST, "/api/v1/stores/chain/order-1", { method: "POST", cookie, params: { id: "order-1" }, body: { key: "status", value: "paid" } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ namespace: "sandbox", chainId: "order-1", key: "status", value: "paid" });
    await call(chainRoute.POST, "/", { method: "POST", cookie, params: { id: "order-2" }, body: { key: "status", value: "open" } });

    expect((await call(chainRoute.GET, "/", { cookie, params: { id: "order-1" } })).body).toEqual({ namespace: "sandbox", chainId: "order-1", store: { status: "paid" }, count: 1 });
    expect((await call(chainRoute.GET, "/", { cookie, params: { id: "order-2" } })).body.store).toEqual({ status: "open" });
    expect((await call(chainRoute.GET, "/", { cookie, params: { id: "never-used" } })).body).toEqual({ namespace: "sandbox", chainId: "never-used", store: {}, count: 0 });
    expect((await call(globalRoute.GET, "/api/v1/stores/global", { cookie })).body.store).not.toHaveProperty("status");
    expect((await namespaceStores(sandboxId)).get("order-1")?.get("status")).toBe("paid");

    expect((await call(chainKeyRoute.DELETE, "/", { method: "DELETE", cookie, params: { id: "order-1", key: "status" } })).status).toBe(200);
    expect((await call(chainKeyRoute.DELETE, "/", { method: "DELETE", cookie, params: { id: "order-1", key: "status" } })).status).toBe(404);
    expect((await call(chainRoute.GET, "/", { cookie, params: { id: "order-2" } })).body.count).toBe(1);
  });

  it("takes the namespace from the body too", async () => {
    const res = await call(chainRoute.POST, "/", { method: "POST", cookie, params: { id: "c9" }, body: { key: "k", value: [1, 2], namespace: "team" } });
    expect(res.body).toMatchObject({ namespace: "team", chainId: "c9" });
    expect((await call(chainRoute.GET, "/?namespace=team", { cookie, params: { id: "c9" } })).body.store).toEqual({ k: [1, 2] });
    expect((await call(chainRoute.GET, "/", { cookie, params: { id: "c9" } })).body.count).toBe(0);
  });

  it("refuses an 'id' that is too long and a new key beyond the per-store limit (409 store_full); existing keys stay writable", async () => {
    const longId = await call(chainRoute.GET, "/", { cookie, params: { id: "c".repeat(201) } });
    expect(longId.status).toBe(400);
    expect(longId.body.details[0]).toMatchObject({ location: "path", field: "id" });

    await db().storeEntry.createMany({ data: Array.from({ length: STORE_MAX_KEYS }, (_, i) => ({ namespaceId: sandboxId, chainId: "full", key: `k${i}`, value: i })) });
    const full = await call(chainRoute.POST, "/", { method: "POST", cookie, params: { id: "full" }, body: { key: "one-more", value: 1 } });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: "store_full", details: { limitKeys: STORE_MAX_KEYS } });
    expect((await call(chainRoute.POST, "/", { method: "POST", cookie, params: { id: "full" }, body: { key: "k7", value: "changed" } })).status).toBe(200);
    expect((await call(chainRoute.POST, "/", { method: "POST", cookie, params: { id: "other" }, body: { key: "k", value: 1 } })).status).toBe(200);
  });
});

// ---- Templates ---------------------------------------------------------------------

describe("templates", () => {
  it("uploads a raw body of any content type, lists it, and downloads the same bytes inline", async () => {
    const text = "Hello {{$.req.body.name}} ✓";
    const created = await send(templateRoute.POST, "/", { method: "POST", cookie, params: { fileName: "greeting.txt" }, headers: { "content-type": "text/plain; charset=utf-8" }, body: text });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ fileName: "greeting.txt", size: Buffer.byteLength(text), contentType: "text/plain; charset=utf-8", created: true });

    const binary = randomBytes(4096);
    expect((await send(templateRoute.POST, "/", { method: "POST", cookie, params: { fileName: "blob.bin" }, body: binary })).json.contentType).toBe("application/octet-stream");
    const json = await send(templateRoute.POST, "/", { method: "POST", cookie, params: { fileName: "user.json" }, headers: { "content-type": "application/json" }, body: '{"id": 1}' });
    expect(json.status).toBe(201);

    const list = await call(templatesRoute.GET, "/api/v1/templates", { cookie });
    expect(list.body.count).toBe(3);
    expect(list.body.templates.map((t: { fileName: string }) => t.fileName)).toEqual(["blob.bin", "greeting.txt", "user.json"]);
    expect(list.body.templates[1]).toEqual({ fileName: "greeting.txt", size: Buffer.byteLength(text), contentType: "text/plain; charset=utf-8", updatedAt: expect.any(String) });

    const down = await send(templateRoute.GET, "/", { cookie, params: { fileName: "blob.bin" } });
    expect(down.status).toBe(200);
    expect(down.bytes.equals(binary)).toBe(true);
    expect(down.headers.get("content-disposition")).toMatch(/^inline; filename="blob\.bin"/);
    expect(down.headers.get("x-content-type-options")).toBe("nosniff");
    expect(down.headers.get("content-security-policy")).toContain("sandbox");
    const downText = await send(templateRoute.GET, "/", { cookie, params: { fileName: "greeting.txt" } });
    expect(downText.bytes.toString("utf8")).toBe(text);
    expect(downText.headers.get("content-type")).toBe("text/plain; charset=utf-8");

    // Other namespaces see none of them.
    expect((await call(templatesRoute.GET, "/api/v1/templates?namespace=team", { cookie })).body).toEqual({ templates: [], count: 0 });
    expect((await send(templateRoute.GET, "/?namespace=team", { cookie, params: { fileName: "blob.bin" } })).status).toBe(404);
  });

  it("uploads multipart/form-data with a 'file' part and replaces an existing file (200)", async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(2000)]);
    const first = await send(templateRoute.POST, "/", { method: "POST", cookie, params: { fileName: "logo.png" }, body: multipart(png, "image/png", "whatever.png") });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ fileName: "logo.png", size: png.length, contentType: "image/png", created: true });
    const down = await send(templateRoute.GET, "/", { cookie, params: { fileName: "logo.png" } });
    expect(down.bytes.equals(png)).toBe(true);
    expect(down.headers.get("content-type")).toBe("image/png");

    const replacement = Buffer.from("not a png any more");
    const replaced = await send(templateRoute.POST, "/", { method: "POST", cookie, params: { fileName: "logo.png" }, body: multipart(replacement, "text/plain") });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toMatchObject({ created: false, size: replacement.length, contentType: "text/plain" });
    expect((await send(templateRoute.GET, "/", { cookie, params: { fileName: "logo.png" } })).bytes.equals(replacement)).toBe(true);
    expect(await db().templateFile.count({ where: { namespaceId: sandboxId, fileName: "logo.png" } })).toBe(1);
  });

  it("refuses a multipart body without a file part, and a text field in its place", async () => {
    const noFile = new FormData();
    noFile.append("other", new File(["x"], "x.txt"));
    const missing = await send(templateRoute.POST, "/", { method: "POST", cookie, params: { fileName: "m.txt" }, body: noFile });
    expect(missing.status).toBe(400);
    expect(missing.json.details[0]).toMatchObject({ location: "body", field: "file" });
    const textField = new FormData();
    textField.append("file", "path/to/file.json");
    const text = await send(templateRoute.POST, "/", { method: "POST", cookie, params: { fileName: "m.txt" }, body: textField });
    expect(text.status).toBe(400);
    expect(text.json.details[0].field).toBe("file");
    const badType = await send(templateRoute.POST, "/", { method: "POST", cookie, params: { fileName: "m.txt" }, headers: { "content-type": "not a media type" }, body: "x" });
    expect(badType.status).toBe(400);
    expect(badType.json.details[0]).toMatchObject({ location: "header", field: "content-type" });
    expect(await db().templateFile.count({ where: { fileName: "m.txt" } })).toBe(0);
  });

  it("refuses names that could leave the template folder, or are not plain file names", async () => {
    for (const fileName of ["..", "../etc/passwd", "a..b", "a/b", "..\\x", ".", "", "x".repeat(201), "name with space", "ümlaut.txt"]) {
      for (const [handler, method] of [[templateRoute.POST, "POST"], [templateRoute.GET, "GET"], [templateRoute.DELETE, "DELETE"]] as const) {
        const res = await send(handler, "/", { method, cookie, params: { fileName }, body: method === "POST" ? "x" : undefined });
        expect(res.status, `${method} ${fileName}`).toBe(400);
        expect(res.json.details[0]).toMatchObject({ location: "path", field: "fileName" });
      }
    }
    expect(await db().templateFile.count({ where: { namespaceId: sandboxId, fileName: { contains: ".." } } })).toBe(0);
  });

  it("answers 413 above 1 MiB, raw or multipart; exactly 1 MiB is accepted", async () => {
    const exact = await send(templateRoute.POST, "/", { method: "POST", cookie, params: { fileName: "exact.bin" }, body: Buffer.alloc(TEMPLATE_MAX_BYTES, 1) });
    expect(exact.status).toBe(201);
    const raw = await send(templateRoute.POST, "/", { method: "POST", cookie, params: { fileName: "big.bin" }, body: Buffer.alloc(TEMPLATE_MAX_BYTES + 1, 1) });
    expect(raw.status).toBe(413);
    expect(raw.json.code).toBe("payload_too_large");
    const form = await send(templateRoute.POST, "/", { method: "POST", cookie, params: { fileName: "big.bin" }, body: multipart(Buffer.alloc(TEMPLATE_MAX_BYTES + 1, 1), "application/octet-stream") });
    expect(form.status).toBe(413);
    expect(await db().templateFile.count({ where: { fileName: "big.bin" } })).toBe(0);
  });

  it("notifies mocks_changed with the namespace id on upload and delete; deleting a missing file is 404", async () => {
    const listener = new pg.Client({ connectionString: databaseUrl() });
    await listener.connect();
    const payloads: string[] = [];
    listener.on("notification", (msg) => {
      if (msg.channel === MOCKS_CHANNEL) payloads.push(msg.payload ?? "");
    });
    await listener.query(`LISTEN ${MOCKS_CHANNEL}`);
    const waitFor = async (count: number) => {
      for (let i = 0; i < 100 && payloads.length < count; i++) await new Promise((r) => setTimeout(r, 20));
      return payloads.length;
    };
    try {
      await send(templateRoute.POST, "/?namespace=team", { method: "POST", cookie, params: { fileName: "n.txt" }, body: "v1" });
      expect(await waitFor(1)).toBe(1);
      expect(payloads[0]).toBe(teamId);
      const removed = await send(templateRoute.DELETE, "/?namespace=team", { method: "DELETE", cookie, params: { fileName: "n.txt" } });
      expect(removed.json).toEqual({ ok: true });
      expect(await waitFor(2)).toBe(2);
      expect(payloads[1]).toBe(teamId);
      expect((await send(templateRoute.DELETE, "/?namespace=team", { method: "DELETE", cookie, params: { fileName: "n.txt" } })).status).toBe(404);
      expect((await send(templateRoute.GET, "/?namespace=team", { cookie, params: { fileName: "n.txt" } })).status).toBe(404);
    } finally {
      await listener.end();
    }
  });

  it("a viewer reads but cannot upload or delete", async () => {
    expect((await call(templatesRoute.GET, "/api/v1/templates", { cookie: viewerCookie })).status).toBe(200);
    expect((await send(templateRoute.GET, "/", { cookie: viewerCookie, params: { fileName: "greeting.txt" } })).status).toBe(200);
    expect((await send(templateRoute.POST, "/", { method: "POST", cookie: viewerCookie, params: { fileName: "v.txt" }, body: "x" })).status).toBe(403);
    expect((await send(templateRoute.DELETE, "/", { method: "DELETE", cookie: viewerCookie, params: { fileName: "greeting.txt" } })).status).toBe(403);
  });
});

// ---- Temporary files ---------------------------------------------------------------

const uploadTemp = (body: BodyInit, opts: { cookie?: string; token?: string; headers?: Record<string, string>; query?: string } = {}) =>
  send(tempFilesRoute.POST, `/api/v1/temp-files${opts.query ?? ""}`, { method: "POST", cookie: opts.cookie, token: opts.token, headers: opts.headers, body });
const getTemp = (id: string, opts: { cookie?: string; token?: string; query?: string } = {}) =>
  send(tempFileRoute.GET, `/api/v1/temp-files/${id}${opts.query ?? ""}`, { cookie: opts.cookie, token: opts.token, params: { fileId: id } });
const deleteTemp = (id: string, opts: { cookie?: string; token?: string; query?: string } = {}) =>
  send(tempFileRoute.DELETE, `/api/v1/temp-files/${id}${opts.query ?? ""}`, { method: "DELETE", cookie: opts.cookie, token: opts.token, params: { fileId: id } });

describe("temporary files", () => {
  it("uploads a raw body named by X-File-Name, downloads the same bytes as an attachment, deletes it", async () => {
    const name = "report 2024 ✓.json";
    const content = Buffer.from(JSON.stringify({ items: [1, 2, 3] }));
    const before = Date.now();
    const up = await uploadTemp(content, { cookie, headers: { "content-type": "application/json", "x-file-name": encodeURIComponent(name) } });
    expect(up.status).toBe(201);
    expect(up.json).toEqual({ id: expect.any(String), fileName: name, size: content.length, contentType: "application/json", expiresAt: expect.any(String) });
    const expires = Date.parse(up.json.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + TEMP_FILE_LIFETIME_MS - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + TEMP_FILE_LIFETIME_MS + 1000);

    const down = await getTemp(up.json.id, { cookie });
    expect(down.status).toBe(200);
    expect(down.bytes.equals(content)).toBe(true);
    expect(down.headers.get("content-type")).toBe("application/json");
    expect(down.headers.get("content-disposition")).toBe(`attachment; filename="report 2024 _.json"; filename*=UTF-8''${encodeURIComponent(name)}`);

    expect((await deleteTemp(up.json.id, { cookie })).json).toEqual({ ok: true });
    expect((await getTemp(up.json.id, { cookie })).status).toBe(404);
    expect((await deleteTemp(up.json.id, { cookie })).status).toBe(404);
  });

  it("uploads multipart/form-data, named by the part's filename", async () => {
    const bytes = randomBytes(10_000);
    const up = await uploadTemp(multipart(bytes, "application/zip", "collection.zip"), { cookie });
    expect(up.status).toBe(201);
    expect(up.json).toMatchObject({ fileName: "collection.zip", size: bytes.length, contentType: "application/zip" });
    expect((await getTemp(up.json.id, { cookie })).bytes.equals(bytes)).toBe(true);
  });

  it("refuses a raw upload without a name, bad names and ids, and files over 10 MiB", async () => {
    const unnamed = await uploadTemp("x", { cookie });
    expect(unnamed.status).toBe(400);
    expect(unnamed.json.details[0]).toMatchObject({ location: "header", field: "x-file-name" });
    for (const bad of ["a/b.txt", "..%2Fx", "%E0%A4%A", "tab%09name", "x".repeat(256)]) {
      const res = await uploadTemp("x", { cookie, headers: { "x-file-name": bad } });
      expect(res.status, bad).toBe(400);
      expect(res.json.details[0]).toMatchObject({ location: "header", field: "x-file-name" });
    }
    const badPart = await uploadTemp(multipart(Buffer.from("x"), "text/plain", "dir\\file.txt"), { cookie });
    expect(badPart.status).toBe(400);
    expect(badPart.json.details[0]).toMatchObject({ location: "body", field: "file" });
    const badId = await getTemp("not-a-uuid", { cookie });
    expect(badId.status).toBe(400);
    expect(badId.json.details[0]).toMatchObject({ location: "path", field: "fileId" });
    const big = await uploadTemp(Buffer.alloc(10 * 1024 * 1024 + 1), { cookie, headers: { "x-file-name": "big.bin" } });
    expect(big.status).toBe(413);
    expect(big.json.code).toBe("payload_too_large");
  });

  it("is private to the uploading identity and namespace: other users, other tokens of the same user, other namespaces get 404", async () => {
    const tokenA = await makeToken(editor);
    const tokenB = await makeToken(editor);
    const bySession = await uploadTemp("session file", { cookie, headers: { "x-file-name": "s.txt" } });
    const byToken = await uploadTemp("token file", { token: tokenA, headers: { "x-file-name": "t.txt" } });
    expect(byToken.status).toBe(201);

    expect((await getTemp(bySession.json.id, { cookie })).bytes.toString()).toBe("session file");
    expect((await getTemp(byToken.json.id, { token: tokenA })).bytes.toString()).toBe("token file");

    expect((await getTemp(bySession.json.id, { cookie: strangerCookie })).status).toBe(404);
    expect((await getTemp(bySession.json.id, { token: tokenA })).status).toBe(404);
    expect((await getTemp(byToken.json.id, { token: tokenB })).status).toBe(404);
    expect((await getTemp(byToken.json.id, { cookie })).status).toBe(404);
    expect((await getTemp(bySession.json.id, { cookie, query: "?namespace=team" })).status).toBe(404);

    expect((await deleteTemp(bySession.json.id, { cookie: strangerCookie })).status).toBe(404);
    expect((await deleteTemp(byToken.json.id, { token: tokenB })).status).toBe(404);
    expect((await deleteTemp(bySession.json.id, { cookie, query: "?namespace=team" })).status).toBe(404);
    expect(await db().tempFile.count({ where: { id: { in: [bySession.json.id, byToken.json.id] } } })).toBe(2);

    // Uploaded in team, it is visible only in team.
    const inTeam = await uploadTemp("team file", { cookie, headers: { "x-file-name": "team.txt" }, query: "?namespace=team" });
    expect((await getTemp(inTeam.json.id, { cookie, query: "?namespace=team" })).status).toBe(200);
    expect((await getTemp(inTeam.json.id, { cookie })).status).toBe(404);
  });

  it("expires 30 minutes after upload: an expired file is 404 at once and the sweep (also run by each upload) deletes it", async () => {
    const up = await uploadTemp("short-lived", { cookie, headers: { "x-file-name": "e.txt" } });
    await db().tempFile.update({ where: { id: up.json.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await getTemp(up.json.id, { cookie })).status).toBe(404);
    expect((await deleteTemp(up.json.id, { cookie })).status).toBe(404);
    expect(await db().tempFile.count({ where: { id: up.json.id } })).toBe(1);
    expect(await sweepExpiredTempFiles()).toBeGreaterThanOrEqual(1);
    expect(await db().tempFile.count({ where: { id: up.json.id } })).toBe(0);

    const later = await uploadTemp("another", { cookie, headers: { "x-file-name": "e2.txt" } });
    await db().tempFile.update({ where: { id: later.json.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await uploadTemp("trigger", { cookie, headers: { "x-file-name": "t.txt" } });
    expect(await db().tempFile.count({ where: { id: later.json.id } })).toBe(0);
  });

  it("encrypts content and name at rest", async () => {
    const name = "secret-customers.csv";
    const content = Buffer.from("id,name\n1,Ada Lovelace\n2,Grace Hopper\n".repeat(20));
    const up = await uploadTemp(content, { cookie, headers: { "content-type": "text/csv", "x-file-name": name } });
    const row = await db().tempFile.findUniqueOrThrow({ where: { id: up.json.id } });
    expect(row.encrypted).toBe(true);
    const stored = Buffer.from(row.content);
    expect(stored.equals(content)).toBe(false);
    expect(stored.includes(Buffer.from("Ada Lovelace"))).toBe(false);
    expect(row.nameEnc).not.toContain("secret");
    expect(Buffer.from(row.nameEnc, "base64").includes(Buffer.from("secret"))).toBe(false);
    expect(row.size).toBe(content.length);
    expect((await getTemp(up.json.id, { cookie })).bytes.equals(content)).toBe(true);

    // Sealed under another APP_SECRET, the file cannot be read: it answers as if gone.
    const secret = process.env.APP_SECRET;
    process.env.APP_SECRET = "another-secret";
    try {
      expect((await getTemp(up.json.id, { cookie })).status).toBe(404);
    } finally {
      process.env.APP_SECRET = secret;
    }
    expect((await getTemp(up.json.id, { cookie })).status).toBe(200);
  });

  it("answers 429 temp_store_full when live files would pass TEMP_FILES_MAX_TOTAL_BYTES", async () => {
    await db().tempFile.deleteMany();
    process.env.TEMP_FILES_MAX_TOTAL_BYTES = "100";
    try {
      expect((await uploadTemp(Buffer.alloc(60), { cookie, headers: { "x-file-name": "a.bin" } })).status).toBe(201);
      const full = await uploadTemp(Buffer.alloc(60), { cookie, headers: { "x-file-name": "b.bin" } });
      expect(full.status).toBe(429);
      expect(full.json).toMatchObject({ code: "temp_store_full", details: { limitBytes: 100, usedBytes: 60 } });
      expect(Number(full.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await uploadTemp(Buffer.alloc(40), { cookie, headers: { "x-file-name": "c.bin" } })).status).toBe(201);
      expect(await db().tempFile.count()).toBe(2);
      // Larger than the whole store: no point in retrying.
      expect((await uploadTemp(Buffer.alloc(101), { cookie, headers: { "x-file-name": "d.bin" } })).status).toBe(413);
    } finally {
      delete process.env.TEMP_FILES_MAX_TOTAL_BYTES;
      await db().tempFile.deleteMany();
    }
  });

  it("honours Idempotency-Key: a repeated upload returns the same file, a different one with the key is 409", async () => {
    const headers = { "x-file-name": "import.json", "content-type": "application/json", "idempotency-key": "import-2024-06-01-a" };
    const first = await uploadTemp('{"a":1}', { cookie, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const repeat = await uploadTemp('{"a":1}', { cookie, headers });
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get("idempotent-replayed")).toBe("true");
    expect(repeat.json).toEqual(first.json);
    expect(await db().tempFile.count({ where: { id: first.json.id } })).toBe(1);

    const different = await uploadTemp('{"a":2}', { cookie, headers });
    expect(different.status).toBe(409);
    expect(different.json).toMatchObject({ code: "idempotency_key_conflict", details: [{ location: "header", field: "idempotency-key" }] });

    // The key is per identity and namespace.
    const other = await uploadTemp('{"a":1}', { cookie: strangerCookie, headers });
    expect(other.status).toBe(201);
    expect(other.json.id).not.toBe(first.json.id);
    const team = await uploadTemp('{"a":1}', { cookie, headers, query: "?namespace=team" });
    expect(team.json.id).not.toBe(first.json.id);

    // Once the file has expired the key stores a new one.
    await db().tempFile.update({ where: { id: first.json.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const afterExpiry = await uploadTemp('{"a":2}', { cookie, headers });
    expect(afterExpiry.status).toBe(201);
    expect(afterExpiry.headers.get("idempotent-replayed")).toBeNull();

    const bad = await uploadTemp("x", { cookie, headers: { "x-file-name": "x.txt", "idempotency-key": "has space" } });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0]).toMatchObject({ location: "header", field: "idempotency-key" });
  });

  it("a viewer may download their own files but not upload or delete", async () => {
    expect((await uploadTemp("x", { cookie: viewerCookie, headers: { "x-file-name": "v.txt" } })).status).toBe(403);
    const mine = await uploadTemp("x", { cookie, headers: { "x-file-name": "v.txt" } });
    expect((await deleteTemp(mine.json.id, { cookie: viewerCookie })).status).toBe(403);
  });

  it("answers 503 unavailable when the database cannot be reached", async () => {
    const url = databaseUrl();
    const actor = actorFor(editor);
    const scope = { id: sandboxId, name: "sandbox", role: "editor" as const, permissions: actor.permissions };
    await disconnectDb();
    process.env.DATABASE_URL = "postgresql://nobody:nothing@127.0.0.1:1/none";
    try {
      const upload = uploadTempFile(actor, scope, { bytes: Buffer.from("x"), fileName: "x.txt", contentType: "text/plain" });
      await expect(upload).rejects.toBeInstanceOf(AppError);
      await expect(upload).rejects.toMatchObject({ code: "unavailable", status: 503 });
      await expect(readTempFile(actor, scope, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ code: "unavailable", status: 503 });
    } finally {
      await disconnectDb();
      process.env.DATABASE_URL = url;
    }
  });
});
