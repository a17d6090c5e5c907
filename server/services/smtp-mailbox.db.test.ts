// The SMTP mailbox over REST: who may read and delete, a namespace the caller
// cannot read is 404, ids that name nothing are 404, search and paging, the
// attachment download (bytes, type, always a download), and the per-namespace cap.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "@/app/api/v1/smtp/messages/route";
import * as oneRoute from "@/app/api/v1/smtp/messages/[id]/route";
import * as attachmentRoute from "@/app/api/v1/smtp/messages/[id]/attachments/[index]/route";
import { MAILBOX_KEEP } from "@/server/contracts/smtp-mailbox";
import { db } from "@/server/db/client";
import { call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { recordReceivedMail, type ReceivedMailInput } from "./smtp-mailbox";

useTestDatabase();

let owner: string;
let viewer: string;
let outsider: string;
let nsId: string;

beforeAll(async () => {
  const o = await makeUser();
  const v = await makeUser();
  const x = await makeUser();
  nsId = (await makeNamespace("postbox", { [o.user.id]: "owner", [v.user.id]: "viewer" })).id;
  await makeNamespace("elsewhere", { [x.user.id]: "owner" });
  owner = await sessionCookie(o.user.id);
  viewer = await sessionCookie(v.user.id);
  outsider = await sessionCookie(x.user.id);
});

const mail = (over: Partial<ReceivedMailInput> = {}) =>
  recordReceivedMail({
    namespaceId: nsId,
    serverName: "inbox",
    envelopeFrom: "alice@example.test",
    envelopeTo: ["bob@example.test"],
    headerFrom: "Alice <alice@example.test>",
    headerTo: "bob@example.test",
    cc: null,
    subject: "Hello",
    text: "hi",
    html: "<p>hi</p><script>alert(1)</script>",
    headers: [{ name: "Subject", value: "Hello" }],
    rawSize: 100,
    mockId: null,
    replyCode: 250,
    replyText: "OK: message queued",
    attachments: [],
    ...over,
  });

const list = (query: string, cookie = owner) => call(listRoute.GET, `/api/v1/smtp/messages?namespace=postbox&${query}`, { cookie });
const get = (id: string, cookie = owner, ns = "postbox") => call(oneRoute.GET, `/api/v1/smtp/messages/${id}?namespace=${ns}`, { cookie, params: { id } });
const attachment = (id: string, index: string, cookie = owner) => call(attachmentRoute.GET, `/api/v1/smtp/messages/${id}/attachments/${index}?namespace=postbox`, { cookie, params: { id, index } });

describe("SMTP mailbox API", () => {
  it("lists newest first with search over sender, recipients and subject, and pages", async () => {
    await mail({ subject: "Invoice 1", envelopeFrom: "billing@shop.test" });
    await mail({ subject: "Welcome", envelopeTo: ["someone@example.test", "new-user@example.test"] });
    await mail({ subject: "Invoice 2", envelopeFrom: "billing@shop.test", mockId: "m-invoice", replyCode: 550, replyText: "no" });
    const all = await list("limit=2");
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(3);
    expect(all.body.messages.map((m: { subject: string }) => m.subject)).toEqual(["Invoice 2", "Welcome"]);
    expect(all.body.messages[0]).toMatchObject({ from: "billing@shop.test", mockId: "m-invoice", replyCode: 550, attachmentCount: 0 });
    expect((await list("search=BILLING@shop")).body.messages.map((m: { subject: string }) => m.subject)).toEqual(["Invoice 2", "Invoice 1"]);
    expect((await list("search=new-user")).body.messages.map((m: { subject: string }) => m.subject)).toEqual(["Welcome"]);
    // LIKE wildcards are searched for as text.
    expect((await list("search=%25")).body.total).toBe(0);
    expect((await list("limit=0")).status).toBe(400);
  });

  it("one mail in full; its attachments download with their type, never inline; one over the budget is metadata only", async () => {
    const id = await mail({
      subject: "With files",
      attachments: [
        { filename: "page.html", contentType: "text/html", contentId: null, inline: false, content: Buffer.from("<script>alert(1)</script>") },
        { filename: "huge.bin", contentType: "application/octet-stream", contentId: null, inline: false, content: Buffer.alloc(6 * 1024 * 1024) },
      ],
    });
    const full = await get(id);
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ subject: "With files", headerFrom: "Alice <alice@example.test>", html: "<p>hi</p><script>alert(1)</script>", headers: [{ name: "Subject", value: "Hello" }] });
    expect(full.body.attachments).toEqual([
      { index: 0, filename: "page.html", contentType: "text/html", size: 25, contentId: null, inline: false, stored: true },
      { index: 1, filename: "huge.bin", contentType: "application/octet-stream", size: 6 * 1024 * 1024, contentId: null, inline: false, stored: false },
    ]);
    const html = await attachment(id, "0");
    expect(html.status).toBe(200);
    expect(html.text).toBe("<script>alert(1)</script>");
    expect(html.headers.get("content-type")).toBe("text/html");
    expect(html.headers.get("content-disposition")).toMatch(/^attachment; filename="page.html"/);
    expect(html.headers.get("content-security-policy")).toContain("sandbox");
    expect((await attachment(id, "1")).status).toBe(404);
    expect((await attachment(id, "7")).status).toBe(404);
    expect((await attachment(id, "-1")).status).toBe(400);
    expect((await attachment(id, "x")).status).toBe(400);
  });

  it("ids that name nothing are 404, a malformed id 400; another namespace's mail is 404; a namespace the caller cannot read is 404", async () => {
    const id = await mail({ subject: "Private" });
    expect((await get(randomUUID())).status).toBe(404);
    expect((await get("not-a-uuid")).status).toBe(400);
    // The outsider names their own namespace: the mail is not there.
    expect((await get(id, outsider, "elsewhere")).status).toBe(404);
    // …or ours: it is not theirs to read.
    expect((await get(id, outsider)).status).toBe(404);
    expect((await list("", outsider)).status).toBe(404);
    expect((await call(listRoute.GET, "/api/v1/smtp/messages?namespace=postbox")).status).toBe(401);
  });

  it("a viewer reads but cannot delete; the owner deletes one, then clears the mailbox", async () => {
    const id = await mail({ subject: "Doomed" });
    expect((await get(id, viewer)).status).toBe(200);
    const refused = await call(oneRoute.DELETE, `/api/v1/smtp/messages/${id}?namespace=postbox`, { method: "DELETE", cookie: viewer, params: { id } });
    expect(refused.status).toBe(403);
    const removed = await call(oneRoute.DELETE, `/api/v1/smtp/messages/${id}?namespace=postbox`, { method: "DELETE", cookie: owner, params: { id } });
    expect(removed).toMatchObject({ status: 200, body: { ok: true } });
    expect((await get(id)).status).toBe(404);
    expect((await call(oneRoute.DELETE, `/api/v1/smtp/messages/${id}?namespace=postbox`, { method: "DELETE", cookie: owner, params: { id } })).status).toBe(404);
    await mail({ subject: "One more" });
    const cleared = await call(listRoute.DELETE, "/api/v1/smtp/messages?namespace=postbox", { method: "DELETE", cookie: owner });
    expect(cleared.status).toBe(200);
    expect(cleared.body.deleted).toBeGreaterThan(0);
    expect((await list("")).body.total).toBe(0);
  });

  it(`keeps the newest ${MAILBOX_KEEP} mails of a namespace: a new one prunes the oldest`, async () => {
    const base = Date.now() - 3_600_000;
    await db().receivedMail.createMany({
      data: Array.from({ length: MAILBOX_KEEP }, (_, i) => ({ namespaceId: nsId, serverName: "inbox", envelopeFrom: "bulk@example.test", envelopeTo: ["x@example.test"], subject: `bulk ${i}`, rawSize: 1, replyCode: 250, replyText: "OK", receivedAt: new Date(base + i * 1000) })),
    });
    await mail({ subject: "the newest" });
    const page = await list("limit=1");
    expect(page.body.total).toBe(MAILBOX_KEEP);
    expect(page.body.messages[0].subject).toBe("the newest");
    expect(await db().receivedMail.count({ where: { namespaceId: nsId, subject: "bulk 0" } })).toBe(0);
    expect(await db().receivedMail.count({ where: { namespaceId: nsId, subject: "bulk 1" } })).toBe(1);
  });
});
