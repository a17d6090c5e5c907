// Service functions added for the web console (issue 5): the namespace-wide
// request log, the dashboard summary, temporary-file and chain listings, and
// an undefined request turned into a mock through the editor. Also the tRPC
// namespace resolution, which must answer like REST's defineRoute.
import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/root";
import type { TrpcContext } from "@/server/api/trpc";
import { db } from "@/server/db/client";
import { actorFor, makeNamespace, makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { dashboardSummary } from "./dashboard";
import { saveMock } from "./mocks";
import { resolveNamespace, type NamespaceScope } from "./namespace-access";
import { listRequestLogs } from "./request-log-list";
import { recordRequestLogs } from "./request-logs";
import { listChainIds, setStoreValue } from "./store-api";
import { listTempFiles, uploadTempFile } from "./temp-files";
import { listUndefinedRequests, mockDraftFromUndefinedRequest, recordUndefinedRequests, saveMockForUndefinedRequest } from "./undefined-requests";

useTestDatabase();

let editor: ReturnType<typeof actorFor>;
let viewer: ReturnType<typeof actorFor>;
let stranger: ReturnType<typeof actorFor>;
let scope: NamespaceScope;

beforeAll(async () => {
  const e = await makeUser({ username: "console-editor" });
  const v = await makeUser({ username: "console-viewer" });
  const s = await makeUser({ username: "console-stranger" });
  await makeNamespace("console", { [e.user.id]: "editor", [v.user.id]: "viewer" });
  editor = actorFor(e.user);
  viewer = actorFor(v.user);
  stranger = actorFor(s.user);
  scope = await resolveNamespace(editor, "console");
});

const caller = (actor: ReturnType<typeof actorFor>) => createCaller({ actor, authError: null, ip: "127.0.0.1", userAgent: null, requestId: "test" } satisfies TrpcContext);

describe("tRPC namespace resolution", () => {
  it("reads for members, 404 for others, 403 for a viewer's write", async () => {
    await saveMock(editor, scope, { id: "m-list", http: { route: "/x" }, priority: 0, ttl: 0, useLimiter: 0, transient: false });
    const list = await caller(viewer).mocks.list({ namespace: "console", offset: 0, limit: 10 });
    expect(list.mocks.map((m) => m.id)).toContain("m-list");
    await expect(caller(stranger).mocks.list({ namespace: "console", offset: 0, limit: 10 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller(viewer).mocks.save({ namespace: "console", mock: { http: { route: "/y" } } })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("tRPC input text", () => {
  it("an unpaired surrogate or NUL anywhere in the input is a 400 naming the field, and nothing is stored", async () => {
    const save = (payload: string) => caller(editor).mocks.save({ namespace: "console", mock: { id: "m-text", http: { route: "/text" }, response: { payload: { note: payload } } } });
    await expect(save("\ud800")).rejects.toMatchObject({ code: "BAD_REQUEST", cause: { details: [{ field: "mock.response.payload.note", message: "contains an unpaired UTF-16 surrogate" }] } });
    await expect(save("a\0b")).rejects.toMatchObject({ code: "BAD_REQUEST", cause: { details: [{ field: "mock.response.payload.note", message: "contains U+0000" }] } });
    expect(await db().mock.count({ where: { id: "m-text" } })).toBe(0);
  });
});

describe("listRequestLogs", () => {
  it("lists the namespace's log newest first, or one mock's, with status and response", async () => {
    const base = Date.now() - 60_000;
    await recordRequestLogs([
      { namespaceId: scope.id, mockId: "a", calledAt: new Date(base), method: "GET", url: "/a", headers: {}, query: {}, body: undefined, status: 200, durationMs: 1, response: { ok: 1 } },
      { namespaceId: scope.id, mockId: "b", calledAt: new Date(base + 1000), method: "POST", url: "/b", headers: { h: ["1"] }, query: {}, body: { x: 1 }, status: 500, durationMs: 2 },
    ]);
    const all = await listRequestLogs(scope, { limit: 10 });
    expect(all.entries.map((e) => e.mockId)).toEqual(["b", "a"]);
    expect(all.entries[0]).toMatchObject({ method: "POST", status: 500, body: { x: 1 }, response: null });
    const one = await listRequestLogs(scope, { mockId: "a", limit: 10 });
    expect(one.entries).toHaveLength(1);
    expect(one.entries[0]).toMatchObject({ url: "/a", response: { ok: 1 } });
  });
});

describe("dashboardSummary", () => {
  it("counts active mocks per protocol, buckets hits and lists recent changes", async () => {
    const ns = await makeNamespace("dash");
    const dash = await resolveNamespace(actorFor({ ...(await makeUser({ role: "admin" })).user }), "dash");
    await saveMock(editor, dash, { id: "h1", http: { route: "/1" }, priority: 0, ttl: 0, useLimiter: 0, transient: false });
    await saveMock(editor, dash, { id: "k1", kafka: { topic: "t" }, priority: 0, ttl: 0, useLimiter: 0, transient: false });
    const now = new Date();
    await recordRequestLogs([
      { namespaceId: ns.id, mockId: "h1", calledAt: now, method: "GET", url: "/1", headers: {}, query: {}, body: undefined, status: 200, durationMs: 1 },
      { namespaceId: ns.id, mockId: "h1", calledAt: now, method: "GET", url: "/1", headers: {}, query: {}, body: undefined, status: 404, durationMs: 1 },
      { namespaceId: ns.id, mockId: "h1", calledAt: new Date(now.getTime() - 3 * 86_400_000), method: "GET", url: "/1", headers: {}, query: {}, body: undefined, status: 200, durationMs: 1 },
    ]);
    const s = await dashboardSummary(dash, "24h", now);
    expect(s.activeMocks).toBe(2);
    expect(s.mocksByProtocol.find((p) => p.protocol === "http")?.count).toBe(1);
    expect(s.mocksByProtocol.find((p) => p.protocol === "kafka")?.count).toBe(1);
    expect(s.hits).toHaveLength(24);
    expect(s.totalHits).toBe(2);
    expect(s.hits.at(-1)).toMatchObject({ hits: 2, errors: 1 });
    expect(s.recent.map((r) => r.mockId)).toEqual(["k1", "h1"]);
    expect((await dashboardSummary(dash, "7d", now)).totalHits).toBe(3);
  });
});

describe("listTempFiles and listChainIds", () => {
  it("lists only the caller's live files in the namespace", async () => {
    await uploadTempFile(editor, scope, { bytes: new TextEncoder().encode("hello"), fileName: "a.txt", contentType: "text/plain" });
    expect((await listTempFiles(editor, scope)).files.map((f) => f.fileName)).toEqual(["a.txt"]);
    expect((await listTempFiles(viewer, scope)).files).toEqual([]);
  });

  it("lists chains with a store or an active mock", async () => {
    await setStoreValue(scope, "chain-b", { key: "k", value: 1 });
    await saveMock(editor, scope, { id: "c1", chainId: "chain-a", http: { route: "/c" }, priority: 0, ttl: 0, useLimiter: 0, transient: false });
    expect((await listChainIds(scope)).chainIds).toEqual(["chain-a", "chain-b"]);
  });
});

describe("undefined request → mock through the editor", () => {
  it("drafts a mock for the captured request, saves the edited one and resolves the request", async () => {
    await recordUndefinedRequests([{ namespaceId: scope.id, method: "PUT", path: "/orders/7", query: {}, headers: {}, body: { a: 1 } }]);
    const [row] = (await listUndefinedRequests(scope, { offset: 0, limit: 10 })).undefinedRequests;
    const { draft, request } = await mockDraftFromUndefinedRequest(scope, row!.id);
    expect(request.path).toBe("/orders/7");
    expect(draft).toMatchObject({ http: { route: "/orders/7", httpMethod: "PUT" }, response: { statusCode: 200 } });
    const saved = await saveMockForUndefinedRequest(editor, scope, row!.id, { id: "from-undef", http: { route: "/orders/7", httpMethod: "PUT" }, response: { statusCode: 202 }, priority: 0, ttl: 0, useLimiter: 0, transient: false });
    expect(saved.mock.id).toBe("from-undef");
    expect(await db().undefinedRequest.count({ where: { id: row!.id } })).toBe(0);
    await expect(mockDraftFromUndefinedRequest(scope, row!.id)).rejects.toMatchObject({ code: "not_found" });
  });
});
