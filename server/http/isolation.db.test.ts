// Namespace isolation, one table: every namespaced resource × caller × action
// (read, write, delete), through the real REST route handlers and tRPC
// procedures against a real database. Every write changes something and every
// outcome is read back: an allowed call changed the row (or, for reads, showed
// it), a refused one left it as it was (or showed nothing).
//   not a member / token pinned elsewhere → 404 (the namespace is invisible)
//   member or credential without the permission → 403
//   anonymous → 401
import { beforeAll, describe, expect, it } from "vitest";
import * as events from "@/app/api/v1/events/route";
import * as member from "@/app/api/v1/members/[user_id]/route";
import * as members from "@/app/api/v1/members/route";
import * as folder from "@/app/api/v1/mock-folders/[id]/route";
import * as folders from "@/app/api/v1/mock-folders/route";
import * as mockLogs from "@/app/api/v1/mocks/[id]/logs/route";
import * as mock from "@/app/api/v1/mocks/[id]/route";
import * as mocks from "@/app/api/v1/mocks/route";
import * as storeKey from "@/app/api/v1/stores/global/[key]/route";
import * as store from "@/app/api/v1/stores/global/route";
import * as tags from "@/app/api/v1/tags/route";
import * as tempFile from "@/app/api/v1/temp-files/[fileId]/route";
import * as tempFiles from "@/app/api/v1/temp-files/route";
import * as template from "@/app/api/v1/templates/[fileName]/route";
import * as templates from "@/app/api/v1/templates/route";
import * as undefinedIgnore from "@/app/api/v1/undefined-requests/[id]/ignore/route";
import * as undefinedRequests from "@/app/api/v1/undefined-requests/route";
import { createCaller } from "@/server/api/root";
import type { TrpcContext } from "@/server/api/trpc";
import type { Actor } from "@/server/auth/actor";
import { authenticate } from "@/server/auth/authenticate";
import type { Permission } from "@/server/contracts/endpoint";
import { db } from "@/server/db/client";
import type { NamespaceScope } from "@/server/services/namespace-access";
import { saveMock } from "@/server/services/mocks";
import { recordRequestLogs } from "@/server/services/request-logs";
import { uploadTempFile } from "@/server/services/temp-files";
import { actorFor, call, makeNamespace, makeToken, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "team";
type Caller = { cookie?: string; token?: string };
const callers: Record<string, Caller> = {};
const actors: Record<string, Actor | null> = {};
let team: NamespaceScope;
let owner: Actor;
let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${n++}`;

beforeAll(async () => {
  const o = await makeUser({ username: "owner" });
  const editor = await makeUser({ username: "editor" });
  const viewer = await makeUser({ username: "viewer" });
  const outsider = await makeUser({ username: "outsider" });
  const admin = await makeUser({ username: "root", role: "admin" });
  const ns = await makeNamespace(NS, { [o.user.id]: "owner", [editor.user.id]: "editor", [viewer.user.id]: "viewer" });
  await makeNamespace("elsewhere", { [o.user.id]: "owner", [outsider.user.id]: "owner" });
  owner = actorFor(o.user);
  team = { id: ns.id, name: NS, role: "owner", permissions: ["read", "write", "delete"] };

  callers.owner = { cookie: await sessionCookie(o.user.id) };
  callers.editor = { cookie: await sessionCookie(editor.user.id) };
  callers.viewer = { cookie: await sessionCookie(viewer.user.id) };
  callers.nonMember = { cookie: await sessionCookie(outsider.user.id) };
  callers.admin = { cookie: await sessionCookie(admin.user.id) };
  const token = (permissions: Permission[], namespace?: string) => makeToken(o.user, { permissions, namespace });
  callers.tokenPinnedIn = { token: await token(["read", "write", "delete"], NS) };
  callers.tokenPinnedOut = { token: await token(["read", "write", "delete"], "elsewhere") };
  callers.tokenReadOnly = { token: await token(["read"]) };
  callers.tokenNoDelete = { token: await token(["read", "write"]) };
  callers.anonymous = {};
  for (const [name, c] of Object.entries(callers)) {
    const headers = new Headers();
    if (c.cookie) headers.set("cookie", c.cookie);
    if (c.token) headers.set("x-api-key", c.token);
    actors[name] = await authenticate(headers, "127.0.0.1");
  }
});

type Action = "read" | "write" | "delete";
type Expected = "ok" | 401 | 403 | 404;

/** One action on one resource: set up a fresh row, act as the caller, then say whether it took effect. */
interface Case {
  /** Member management also needs the owner role (editors get 403). */
  ownerOnly?: boolean;
  run(caller: string): Promise<{ status: number; tookEffect: () => Promise<boolean> }>;
}

const q = `?namespace=${NS}`;
const as = (caller: string) => callers[caller];
const has = (body: unknown, marker: string) => JSON.stringify(body ?? null).includes(marker);

async function newMock(extra: Record<string, unknown> = {}) {
  const id = unique("m");
  await saveMock(owner, team, { id, http: { route: `/${id}` }, priority: 0, ttl: 0, useLimiter: 0, transient: false, ...extra });
  return id;
}
const mockRow = (id: string) => db().mock.findFirstOrThrow({ where: { namespaceId: team.id, id } });

async function newFolder() {
  return db().mockFolder.create({ data: { namespaceId: team.id, name: unique("folder") } });
}

async function newStoreKey() {
  const key = unique("k");
  await db().storeEntry.create({ data: { namespaceId: team.id, chainId: "", key, value: "before" } });
  return key;
}
const storeValue = async (key: string) => (await db().storeEntry.findUnique({ where: { namespaceId_chainId_key: { namespaceId: team.id, chainId: "", key } } }))?.value;

async function newTemplate() {
  const fileName = `${unique("t")}.txt`;
  await db().templateFile.create({ data: { namespaceId: team.id, fileName, content: Buffer.from("before"), contentType: "text/plain", size: 6 } });
  return fileName;
}
const templateRow = (fileName: string) => db().templateFile.findUnique({ where: { namespaceId_fileName: { namespaceId: team.id, fileName } } });

/** Temp files are private to the identity that uploaded them, so each caller reads and deletes its own. */
async function newTempFile(caller: string) {
  const fileName = unique("tmp");
  const { file } = await uploadTempFile(actors[caller] ?? owner, team, { bytes: Buffer.from(fileName), fileName, contentType: "text/plain" });
  return { id: file.id, fileName };
}

async function newUndefinedRequest() {
  const path = `/${unique("u")}`;
  return db().undefinedRequest.create({ data: { namespaceId: team.id, method: "GET", path, signature: `GET ${path}`, headers: {}, query: {} } });
}

async function newMember() {
  const { user } = await makeUser({ namespaces: { [NS]: "viewer" } });
  return user.id;
}
const roleOf = async (userId: string) => (await db().membership.findFirst({ where: { namespaceId: team.id, userId } }))?.role;

// tRPC answers with codes; the table speaks HTTP statuses.
const TRPC_STATUS: Record<string, number> = { UNAUTHORIZED: 401, FORBIDDEN: 403, NOT_FOUND: 404, BAD_REQUEST: 400 };
async function viaTrpc(caller: string, fn: (api: ReturnType<typeof createCaller>) => Promise<unknown>): Promise<{ status: number; result?: unknown }> {
  const api = createCaller({ actor: actors[caller], authError: null, ip: "127.0.0.1", userAgent: null, requestId: "isolation" } satisfies TrpcContext);
  try {
    return { status: 200, result: await fn(api) };
  } catch (err) {
    return { status: TRPC_STATUS[(err as { code?: string }).code ?? ""] ?? 500 };
  }
}

const resources: Record<string, Partial<Record<Action, Case>>> = {
  mocks: {
    read: {
      async run(c) {
        const id = await newMock();
        const r = await call(mocks.GET, `/api/v1/mocks${q}`, as(c));
        return { status: r.status, tookEffect: async () => has(r.body, id) };
      },
    },
    write: {
      async run(c) {
        const id = await newMock();
        const r = await call(mock.PATCH, `/api/v1/mocks/${id}${q}`, { ...as(c), method: "PATCH", params: { id }, body: { priority: 7 } });
        return { status: r.status, tookEffect: async () => (await mockRow(id)).priority === 7 };
      },
    },
    delete: {
      async run(c) {
        const id = await newMock();
        const r = await call(mock.DELETE, `/api/v1/mocks/${id}${q}`, { ...as(c), method: "DELETE", params: { id } });
        return { status: r.status, tookEffect: async () => (await mockRow(id)).deletedAt !== null };
      },
    },
  },
  folders: {
    read: {
      async run(c) {
        const f = await newFolder();
        const r = await call(folders.GET, `/api/v1/mock-folders${q}`, as(c));
        return { status: r.status, tookEffect: async () => has(r.body, f.id) };
      },
    },
    write: {
      async run(c) {
        const f = await newFolder();
        const name = unique("renamed");
        const r = await call(folder.PUT, `/api/v1/mock-folders/${f.id}${q}`, { ...as(c), method: "PUT", params: { id: f.id }, body: { name } });
        return { status: r.status, tookEffect: async () => (await db().mockFolder.findUniqueOrThrow({ where: { id: f.id } })).name === name };
      },
    },
    delete: {
      async run(c) {
        const f = await newFolder();
        const r = await call(folder.DELETE, `/api/v1/mock-folders/${f.id}${q}`, { ...as(c), method: "DELETE", params: { id: f.id } });
        return { status: r.status, tookEffect: async () => (await db().mockFolder.count({ where: { id: f.id } })) === 0 };
      },
    },
  },
  tags: {
    read: {
      async run(c) {
        const name = unique("tag");
        await db().tag.create({ data: { namespaceId: team.id, name } });
        const r = await call(tags.GET, `/api/v1/tags${q}`, as(c));
        return { status: r.status, tookEffect: async () => has(r.body, name) };
      },
    },
    write: {
      async run(c) {
        const name = unique("tag");
        const r = await call(tags.POST, `/api/v1/tags${q}`, { ...as(c), method: "POST", body: { name } });
        return { status: r.status, tookEffect: async () => (await db().tag.count({ where: { namespaceId: team.id, name } })) === 1 };
      },
    },
    // Tags have no delete of their own: they go when no mock carries them.
  },
  stores: {
    read: {
      async run(c) {
        const key = await newStoreKey();
        const r = await call(store.GET, `/api/v1/stores/global${q}`, as(c));
        return { status: r.status, tookEffect: async () => has(r.body, key) };
      },
    },
    write: {
      async run(c) {
        const key = await newStoreKey();
        const r = await call(store.POST, `/api/v1/stores/global${q}`, { ...as(c), method: "POST", body: { key, value: "after" } });
        return { status: r.status, tookEffect: async () => (await storeValue(key)) === "after" };
      },
    },
    delete: {
      async run(c) {
        const key = await newStoreKey();
        const r = await call(storeKey.DELETE, `/api/v1/stores/global/${key}${q}`, { ...as(c), method: "DELETE", params: { key } });
        return { status: r.status, tookEffect: async () => (await storeValue(key)) === undefined };
      },
    },
  },
  templates: {
    read: {
      async run(c) {
        const fileName = await newTemplate();
        const r = await call(templates.GET, `/api/v1/templates${q}`, as(c));
        return { status: r.status, tookEffect: async () => has(r.body, fileName) };
      },
    },
    write: {
      async run(c) {
        const fileName = await newTemplate();
        const r = await call(template.POST, `/api/v1/templates/${fileName}${q}`, { ...as(c), method: "POST", params: { fileName }, rawBody: "after", headers: { "content-type": "text/plain" } });
        return { status: r.status, tookEffect: async () => Buffer.from((await templateRow(fileName))!.content).toString() === "after" };
      },
    },
    delete: {
      async run(c) {
        const fileName = await newTemplate();
        const r = await call(template.DELETE, `/api/v1/templates/${fileName}${q}`, { ...as(c), method: "DELETE", params: { fileName } });
        return { status: r.status, tookEffect: async () => (await templateRow(fileName)) === null };
      },
    },
  },
  "temp files": {
    read: {
      async run(c) {
        const f = await newTempFile(c);
        const r = await call(tempFile.GET, `/api/v1/temp-files/${f.id}${q}`, { ...as(c), params: { fileId: f.id } });
        return { status: r.status, tookEffect: async () => r.text === f.fileName };
      },
    },
    write: {
      async run(c) {
        const before = await db().tempFile.count({ where: { namespaceId: team.id } });
        const r = await call(tempFiles.POST, `/api/v1/temp-files${q}`, { ...as(c), method: "POST", rawBody: "x", headers: { "content-type": "text/plain", "x-file-name": unique("upload") } });
        return { status: r.status, tookEffect: async () => (await db().tempFile.count({ where: { namespaceId: team.id } })) === before + 1 };
      },
    },
    delete: {
      async run(c) {
        const f = await newTempFile(c);
        const r = await call(tempFile.DELETE, `/api/v1/temp-files/${f.id}${q}`, { ...as(c), method: "DELETE", params: { fileId: f.id } });
        return { status: r.status, tookEffect: async () => (await db().tempFile.count({ where: { id: f.id } })) === 0 };
      },
    },
  },
  "undefined requests": {
    read: {
      async run(c) {
        const u = await newUndefinedRequest();
        const r = await call(undefinedRequests.GET, `/api/v1/undefined-requests${q}`, as(c));
        return { status: r.status, tookEffect: async () => has(r.body, u.id) };
      },
    },
    write: {
      async run(c) {
        const u = await newUndefinedRequest();
        const r = await call(undefinedIgnore.PATCH, `/api/v1/undefined-requests/${u.id}/ignore${q}`, { ...as(c), method: "PATCH", params: { id: u.id }, body: { ignored: true } });
        return { status: r.status, tookEffect: async () => (await db().undefinedRequest.findUniqueOrThrow({ where: { id: u.id } })).ignored };
      },
    },
    delete: {
      async run(c) {
        const u = await newUndefinedRequest();
        const r = await call(undefinedRequests.DELETE, `/api/v1/undefined-requests${q}`, { ...as(c), method: "DELETE", body: { ids: [u.id] } });
        return { status: r.status, tookEffect: async () => (await db().undefinedRequest.count({ where: { id: u.id } })) === 0 };
      },
    },
  },
  logs: {
    read: {
      async run(c) {
        const id = await newMock();
        const url = `/${unique("logged")}`;
        await recordRequestLogs([{ namespaceId: team.id, mockId: id, method: "GET", url, headers: {}, query: {}, body: null, status: 200, durationMs: 1 }]);
        const r = await call(mockLogs.GET, `/api/v1/mocks/${id}/logs${q}`, { ...as(c), params: { id } });
        return { status: r.status, tookEffect: async () => has(r.body, url) };
      },
    },
    // The request log is written by stub traffic only; it has no write or delete of its own.
  },
  events: {
    read: {
      async run(c) {
        // A live SSE stream: read the status and first bytes, then hang up.
        const abort = new AbortController();
        const headers = new Headers({ "x-polymock-peer": "127.0.0.1" });
        const who = as(c);
        if (who.cookie) headers.set("cookie", who.cookie);
        if (who.token) headers.set("x-api-key", who.token);
        const res = await events.GET(new Request(`http://localhost/api/v1/events${q}`, { headers, signal: abort.signal }), { params: Promise.resolve({}) });
        let first = "";
        if (res.ok && res.body) {
          const reader = res.body.getReader();
          first = new TextDecoder().decode((await reader.read()).value);
          await reader.cancel();
        }
        abort.abort();
        return { status: res.status, tookEffect: async () => first.startsWith(": connected") };
      },
    },
  },
  members: {
    read: {
      async run(c) {
        const userId = await newMember();
        const r = await call(members.GET, `/api/v1/members${q}`, as(c));
        return { status: r.status, tookEffect: async () => has(r.body, userId) };
      },
    },
    write: {
      ownerOnly: true,
      async run(c) {
        const userId = await newMember();
        const r = await call(member.PUT, `/api/v1/members/${userId}${q}`, { ...as(c), method: "PUT", params: { user_id: userId }, body: { role: "editor" } });
        return { status: r.status, tookEffect: async () => (await roleOf(userId)) === "editor" };
      },
    },
    delete: {
      ownerOnly: true,
      async run(c) {
        const userId = await newMember();
        const r = await call(member.DELETE, `/api/v1/members/${userId}${q}`, { ...as(c), method: "DELETE", params: { user_id: userId } });
        return { status: r.status, tookEffect: async () => (await roleOf(userId)) === undefined };
      },
    },
  },
  "tRPC mocks": {
    read: {
      async run(c) {
        const id = await newMock();
        const r = await viaTrpc(c, (api) => api.mocks.list({ namespace: NS, offset: 0, limit: 50 }));
        return { status: r.status, tookEffect: async () => has(r.result, id) };
      },
    },
    write: {
      async run(c) {
        const id = await newMock();
        const r = await viaTrpc(c, (api) => api.mocks.save({ namespace: NS, mock: { id, http: { route: `/${id}` }, priority: 9 }, intent: "overwrite" }));
        return { status: r.status, tookEffect: async () => (await mockRow(id)).priority === 9 };
      },
    },
    delete: {
      async run(c) {
        const id = await newMock();
        const r = await viaTrpc(c, (api) => api.mocks.remove({ namespace: NS, id }));
        return { status: r.status, tookEffect: async () => (await mockRow(id)).deletedAt !== null };
      },
    },
  },
  "tRPC stores": {
    read: {
      async run(c) {
        const key = await newStoreKey();
        const r = await viaTrpc(c, (api) => api.stores.get({ namespace: NS }));
        return { status: r.status, tookEffect: async () => has(r.result, key) };
      },
    },
    write: {
      async run(c) {
        const key = await newStoreKey();
        const r = await viaTrpc(c, (api) => api.stores.set({ namespace: NS, key, value: "after" }));
        return { status: r.status, tookEffect: async () => (await storeValue(key)) === "after" };
      },
    },
    delete: {
      async run(c) {
        const key = await newStoreKey();
        const r = await viaTrpc(c, (api) => api.stores.remove({ namespace: NS, key }));
        return { status: r.status, tookEffect: async () => (await storeValue(key)) === undefined };
      },
    },
  },
  "tRPC undefined requests": {
    read: {
      async run(c) {
        const u = await newUndefinedRequest();
        const r = await viaTrpc(c, (api) => api.undefinedRequests.list({ namespace: NS }));
        return { status: r.status, tookEffect: async () => has(r.result, u.id) };
      },
    },
    write: {
      async run(c) {
        const u = await newUndefinedRequest();
        const r = await viaTrpc(c, (api) => api.undefinedRequests.ignore({ namespace: NS, id: u.id, ignored: true }));
        return { status: r.status, tookEffect: async () => (await db().undefinedRequest.findUniqueOrThrow({ where: { id: u.id } })).ignored };
      },
    },
    delete: {
      async run(c) {
        const u = await newUndefinedRequest();
        const r = await viaTrpc(c, (api) => api.undefinedRequests.remove({ namespace: NS, ids: [u.id] }));
        return { status: r.status, tookEffect: async () => (await db().undefinedRequest.count({ where: { id: u.id } })) === 0 };
      },
    },
  },
  "tRPC folders": {
    read: {
      async run(c) {
        const f = await newFolder();
        const r = await viaTrpc(c, (api) => api.folders.list({ namespace: NS }));
        return { status: r.status, tookEffect: async () => has(r.result, f.id) };
      },
    },
    write: {
      async run(c) {
        const f = await newFolder();
        const name = unique("renamed");
        const r = await viaTrpc(c, (api) => api.folders.update({ namespace: NS, id: f.id, folder: { name } }));
        return { status: r.status, tookEffect: async () => (await db().mockFolder.findUniqueOrThrow({ where: { id: f.id } })).name === name };
      },
    },
    delete: {
      async run(c) {
        const f = await newFolder();
        const r = await viaTrpc(c, (api) => api.folders.remove({ namespace: NS, id: f.id }));
        return { status: r.status, tookEffect: async () => (await db().mockFolder.count({ where: { id: f.id } })) === 0 };
      },
    },
  },
  "tRPC templates": {
    read: {
      async run(c) {
        const fileName = await newTemplate();
        const r = await viaTrpc(c, (api) => api.templates.list({ namespace: NS }));
        return { status: r.status, tookEffect: async () => has(r.result, fileName) };
      },
    },
    write: {
      async run(c) {
        const fileName = await newTemplate();
        const r = await viaTrpc(c, (api) => api.templates.upload({ namespace: NS, fileName, contentType: "text/plain", contentBase64: Buffer.from("after").toString("base64") }));
        return { status: r.status, tookEffect: async () => Buffer.from((await templateRow(fileName))!.content).toString() === "after" };
      },
    },
    delete: {
      async run(c) {
        const fileName = await newTemplate();
        const r = await viaTrpc(c, (api) => api.templates.remove({ namespace: NS, fileName }));
        return { status: r.status, tookEffect: async () => (await templateRow(fileName)) === null };
      },
    },
  },
  "tRPC temp files": {
    read: {
      async run(c) {
        const f = await newTempFile(c);
        const r = await viaTrpc(c, (api) => api.tempFiles.list({ namespace: NS }));
        return { status: r.status, tookEffect: async () => has(r.result, f.id) };
      },
    },
    delete: {
      async run(c) {
        const f = await newTempFile(c);
        const r = await viaTrpc(c, (api) => api.tempFiles.remove({ namespace: NS, fileId: f.id }));
        return { status: r.status, tookEffect: async () => (await db().tempFile.count({ where: { id: f.id } })) === 0 };
      },
    },
  },
  "tRPC request logs": {
    read: {
      async run(c) {
        const id = await newMock();
        const url = `/${unique("logged")}`;
        await recordRequestLogs([{ namespaceId: team.id, mockId: id, method: "GET", url, headers: {}, query: {}, body: null, status: 200, durationMs: 1 }]);
        const r = await viaTrpc(c, (api) => api.requestLogs.list({ namespace: NS, mockId: id }));
        return { status: r.status, tookEffect: async () => has(r.result, url) };
      },
    },
  },
  "tRPC members": {
    read: {
      async run(c) {
        const userId = await newMember();
        const r = await viaTrpc(c, (api) => api.members.list({ namespace: NS }));
        return { status: r.status, tookEffect: async () => has(r.result, userId) };
      },
    },
    write: {
      ownerOnly: true,
      async run(c) {
        const userId = await newMember();
        const r = await viaTrpc(c, (api) => api.members.setRole({ namespace: NS, userId, role: "editor" }));
        return { status: r.status, tookEffect: async () => (await roleOf(userId)) === "editor" };
      },
    },
    delete: {
      ownerOnly: true,
      async run(c) {
        const userId = await newMember();
        const r = await viaTrpc(c, (api) => api.members.remove({ namespace: NS, userId }));
        return { status: r.status, tookEffect: async () => (await roleOf(userId)) === undefined };
      },
    },
  },
};

// The caller table: what each may do in namespace `team` (owner-only actions aside).
//             caller            read   write  delete
const callerTable: [string, Expected, Expected, Expected][] = [
  ["owner",          "ok",  "ok",  "ok"],
  ["editor",         "ok",  "ok",  "ok"],
  ["viewer",         "ok",  403,   403],
  ["nonMember",      404,   404,   404],
  ["admin",          "ok",  "ok",  "ok"],
  ["tokenPinnedIn",  "ok",  "ok",  "ok"],
  ["tokenPinnedOut", 404,   404,   404],
  ["tokenReadOnly",  "ok",  403,   403],
  ["tokenNoDelete",  "ok",  "ok",  403],
  ["anonymous",      401,   401,   401],
];

function expectedFor(caller: string, action: Action, ownerOnly: boolean): Expected {
  const [, read, write, del] = callerTable.find(([name]) => name === caller)!;
  const base = action === "read" ? read : action === "write" ? write : del;
  // Managing members needs the owner role as well; an admin has it everywhere, and an owner's token carries it.
  if (ownerOnly && base === "ok" && caller === "editor") return 403;
  return base;
}

const rows = Object.entries(resources).flatMap(([resource, actions]) =>
  callerTable.flatMap(([caller]) =>
    (Object.entries(actions) as [Action, Case][]).map(([action, c]) => [resource, caller, action, expectedFor(caller, action, c.ownerOnly ?? false)] as const),
  ),
);

describe("namespace isolation: resource × caller × action", () => {
  it.each(rows)("%s: %s %s → %s", async (resource, caller, action, expected) => {
    const { status, tookEffect } = await resources[resource][action]!.run(caller);
    if (expected === "ok") {
      expect(status, `${resource} ${action} as ${caller}`).toBeGreaterThanOrEqual(200);
      expect(status).toBeLessThan(300);
      expect(await tookEffect(), "the change (or the row, for reads) is there").toBe(true);
    } else {
      expect(status, `${resource} ${action} as ${caller}`).toBe(expected);
      expect(await tookEffect(), "a refused call changed (or showed) nothing").toBe(false);
    }
  });
});
