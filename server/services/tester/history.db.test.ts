// The execution history: recordHistory masks the secret values that were
// sent (text and base64 bodies), keeps 64 KiB of a body, links the saved
// request; GET /requests/history lists the caller's own entries newest first,
// filters by request, pages; each user keeps the newest HISTORY_KEEP per namespace.
import { beforeAll, describe, expect, it } from "vitest";
import * as historyRoute from "@/app/api/v1/api-tester/requests/history/route";
import type { ExecutedResponse, SentRequest } from "@/server/contracts/tester-execution";
import { HISTORY_BODY_BYTES, HISTORY_KEEP } from "@/server/contracts/tester-history";
import { SECRET_MASK } from "@/server/contracts/tester-request";
import { db } from "@/server/db/client";
import { actorFor, call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { type NamespaceScope, resolveNamespace } from "../namespace-access";
import { createCollection } from "./collections";
import { createRequest, deleteRequest } from "./requests";
import { recordHistory } from "./history";

useTestDatabase();

const NS = "hist";
let me: ReturnType<typeof actorFor>;
let colleague: ReturnType<typeof actorFor>;
let cookie: string;
let colleagueCookie: string;
let scope: NamespaceScope;

beforeAll(async () => {
  const a = await makeUser({ namespaces: { [NS]: "editor", quiet: "editor" } });
  const b = await makeUser();
  await makeNamespace(NS, { [b.user.id]: "viewer" });
  me = actorFor(a.user);
  colleague = actorFor(b.user);
  cookie = await sessionCookie(a.user.id);
  colleagueCookie = await sessionCookie(b.user.id);
  scope = await resolveNamespace(me, NS);
});

const sent = (over: Partial<SentRequest> = {}): SentRequest => ({ method: "GET", url: "https://api.example.test/users", headers: [{ key: "Accept", value: "*/*" }], ...over });
const response = (over: Partial<ExecutedResponse> = {}): ExecutedResponse => ({
  status: 200,
  statusText: "OK",
  headers: [{ key: "content-type", value: "application/json" }],
  body: '{"ok":true}',
  bodyEncoding: "utf8",
  bodyTruncated: false,
  size: { headers: 40, body: 11 },
  cookies: [],
  timings: { dnsMs: 1, connectMs: 1, tlsMs: 0, firstByteMs: 5, downloadMs: 1, totalMs: 12.5 },
  url: "https://api.example.test/users",
  redirects: [],
  httpVersion: "1.1",
  ...over,
});
const history = (query = "", as = cookie) => call(historyRoute.GET, `/api/v1/api-tester/requests/history?namespace=${NS}&${query}`, { cookie: as });

describe("history", () => {
  it("masks every secret value that was sent, in the URL, headers, text and base64 bodies and the error", async () => {
    const secrets = ["tok-123456", "hunter2"];
    const multipart = Buffer.concat([Buffer.from("--b\r\nfield: hunter2\r\n"), Buffer.from([0xff, 0x00, 0xfe]), Buffer.from("\r\n--b--")]);
    const entry = await recordHistory(me, scope, {
      sent: sent({ method: "POST", url: "https://api.example.test/login?token=tok-123456", headers: [{ key: "Authorization", value: "Bearer tok-123456" }], body: multipart.toString("base64"), bodyEncoding: "base64" }),
      response: null,
      error: "connect ECONNREFUSED while sending tok-123456",
      secretValues: secrets,
    });
    expect(entry.url).toBe(`https://api.example.test/login?token=${SECRET_MASK}`);
    expect(entry.request.headers).toEqual([{ key: "Authorization", value: `Bearer ${SECRET_MASK}` }]);
    const body = Buffer.from(entry.request.body!, "base64");
    expect(body.includes(Buffer.from("hunter2"))).toBe(false);
    expect(body.includes(Buffer.from(`field: ${SECRET_MASK}`))).toBe(true);
    expect(body.includes(Buffer.from([0xff, 0x00, 0xfe]))).toBe(true); // other bytes kept exactly
    expect(entry).toMatchObject({ status: null, response: null, error: `connect ECONNREFUSED while sending ${SECRET_MASK}` });

    const text = await recordHistory(me, scope, { sent: sent({ method: "PUT", body: '{"password":"hunter2"}' }), response: response(), secretValues: secrets });
    expect(text.request.body).toBe(`{"password":"${SECRET_MASK}"}`);
    const stored = await db().testerHistory.findMany({ where: { id: { in: [entry.id, text.id] } } });
    expect(JSON.stringify(stored)).not.toMatch(/tok-123456|hunter2/);
  });

  it("keeps 64 KiB of a body and says it was cut; keeps status, time, size and headers", async () => {
    const big = "é".repeat(HISTORY_BODY_BYTES); // two bytes each
    const entry = await recordHistory(me, scope, { sent: sent(), response: response({ body: big, size: { headers: 40, body: big.length * 2 } }) });
    expect(entry.response).toMatchObject({ status: 200, statusText: "OK", bodyTruncated: true, timeMs: 12.5, headers: [{ key: "content-type", value: "application/json" }], size: { headers: 40, body: HISTORY_BODY_BYTES * 2 } });
    expect(Buffer.byteLength(entry.response!.body)).toBe(HISTORY_BODY_BYTES);
    expect(entry.response!.body).toBe("é".repeat(HISTORY_BODY_BYTES / 2));
    expect(entry).toMatchObject({ status: 200, timeMs: 12.5, size: HISTORY_BODY_BYTES * 2 });
    const odd = await recordHistory(me, scope, { sent: sent(), response: response({ body: "a" + "é".repeat(HISTORY_BODY_BYTES / 2) }) });
    expect(odd.response!.body).toBe("a" + "é".repeat(HISTORY_BODY_BYTES / 2 - 1)); // cut before the character that does not fit
    const binary = Buffer.alloc(HISTORY_BODY_BYTES + 10, 7).toString("base64");
    const b = await recordHistory(me, scope, { sent: sent(), response: response({ body: binary, bodyEncoding: "base64" }) });
    expect(Buffer.from(b.response!.body, "base64").length).toBe(HISTORY_BODY_BYTES);
  });

  it("lists the caller's own entries newest first, by saved request, in pages; a deleted request leaves its entries unlinked", async () => {
    const collection = await createCollection(me, scope, { name: "History" });
    const saved = await createRequest(scope, collection.id, { name: "Saved", url: "https://api.example.test/saved", kind: "http", method: "GET", headers: [], params: [], body: { mode: "none" }, auth: { type: "inherit" }, settings: { timeoutMs: 1000, followRedirects: true, maxRedirects: 1, verifyTls: true }, scripts: {} });
    const first = await recordHistory(me, scope, { requestId: saved.id, collectionId: collection.id, sent: sent({ url: "https://api.example.test/saved?n=1" }), response: response(), verdict: { test: { status: "passed", success: true, totalTests: 1, passedTests: 1, failedTests: 0, skippedTests: 0, tests: [{ name: "ok", status: "passed" }], logs: [], durationMs: 2 } } });
    const second = await recordHistory(me, scope, { requestId: saved.id, collectionId: collection.id, sent: sent({ url: "https://api.example.test/saved?n=2" }), response: response({ status: 500, statusText: "Internal Server Error" }) });
    await recordHistory(colleague, scope, { sent: sent({ url: "https://api.example.test/theirs" }), response: response() });

    const mine = await history();
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.history.every((h: { url: string }) => !h.url.includes("theirs"))).toBe(true);
    const forSaved = await history(`requestId=${saved.id}`);
    expect(forSaved.body.history.map((h: { id: string }) => h.id)).toEqual([second.id, first.id]);
    expect(forSaved.body.history[1]).toMatchObject({ requestId: saved.id, collectionId: collection.id, status: 200, verdict: { test: { success: true, totalTests: 1 } } });
    expect(forSaved.body.history[0]).toMatchObject({ status: 500, verdict: null });
    const page = await history(`requestId=${saved.id}&limit=1&offset=1`);
    expect(page.body).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.body.history.map((h: { id: string }) => h.id)).toEqual([first.id]);
    expect((await history("", colleagueCookie)).body.history.map((h: { url: string }) => h.url)).toEqual(["https://api.example.test/theirs"]);
    expect((await history("requestId=nope")).status).toBe(400);

    await deleteRequest(scope, saved.id);
    const unlinked = await db().testerHistory.findUniqueOrThrow({ where: { id: first.id } });
    expect(unlinked.requestId).toBeNull();
    // A request id that names nothing (deleted meanwhile) is recorded unlinked, not refused.
    const late = await recordHistory(me, scope, { requestId: saved.id, sent: sent(), response: response() });
    expect(late.requestId).toBeNull();
  });

  it(`keeps the newest ${HISTORY_KEEP} entries per user and namespace`, async () => {
    const quiet = await resolveNamespace(me, "quiet");
    const ids: string[] = [];
    for (let i = 0; i < HISTORY_KEEP + 5; i++) ids.push((await recordHistory(me, quiet, { sent: sent({ url: `https://api.example.test/n/${i}` }), response: response() })).id);
    const left = await db().testerHistory.findMany({ where: { namespaceId: quiet.id, userId: me.user.id }, select: { id: true, url: true } });
    expect(left).toHaveLength(HISTORY_KEEP);
    const urls = new Set(left.map((r) => r.url));
    for (let i = 0; i < 5; i++) expect(urls.has(`https://api.example.test/n/${i}`)).toBe(false);
    expect(urls.has(`https://api.example.test/n/${HISTORY_KEEP + 4}`)).toBe(true);
    // Other namespaces' entries are not touched.
    expect(await db().testerHistory.count({ where: { namespaceId: scope.id, userId: me.user.id } })).toBeGreaterThan(0);
  });
});
