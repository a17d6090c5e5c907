// SMTP mocks served by the protocol runner to a real client (nodemailer):
// protocol servers created through the service (which NOTIFYs the running
// runner), each condition list, condition choice, templated and rejecting
// replies, unmatched capture, the request log, the mailbox, webhooks and
// stores, AUTH, STARTTLS, and a port in use.
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateProtocolServerInput } from "@/server/contracts/protocol-servers";
import { MockInput } from "@/server/contracts/mock";
import { db } from "@/server/db/client";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { stubRecorder } from "@/server/serving/recorder";
import { saveMock } from "@/server/services/mocks";
import { resolveNamespace, type NamespaceScope } from "@/server/services/namespace-access";
import { createProtocolServer, getProtocolServer, updateProtocolServer } from "@/server/services/protocol-servers";
import { getMail, listMail, readMailAttachment } from "@/server/services/smtp-mailbox";
import { createMockFromUndefinedRequest } from "@/server/services/undefined-requests";
import { drainWebhooks } from "@/server/services/webhooks";
import { actorFor, makeNamespace, makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { startRunner, type Runner } from "../reconciler";
import { smtpModule } from "./smtp-module";
import { freePort, until } from "../testing";

useTestDatabase();

let runner: Runner;
let actor: ReturnType<typeof actorFor>;
let scope: NamespaceScope;

const seen: { url: string; body: string }[] = [];
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    seen.push({ url: req.url!, body });
    res.writeHead(204);
    res.end();
  });
});
let hooksPort = 0;

beforeAll(async () => {
  const { user } = await makeUser();
  await makeNamespace("mail", { [user.id]: "owner" });
  actor = actorFor(user);
  scope = await resolveNamespace(actor, "mail");
  runner = await startRunner([smtpModule("127.0.0.1")]);
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  hooksPort = (receiver.address() as AddressInfo).port;
});

afterAll(async () => {
  await runner?.stop();
  await stubRecorder().drain();
  await drainWebhooks();
  await stopListening();
  invalidateAll();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});



/** Creates an smtp protocol server and waits for the runner to report it listening; answers its port. */
async function server(name: string, extra: Record<string, unknown> = {}) {
  const port = await freePort();
  const created = await createProtocolServer(scope, CreateProtocolServerInput.parse({ name, protocol: "smtp", host: "127.0.0.1", port, ...extra }));
  await until(async () => (await getProtocolServer(scope, created.id)).state === "listening", `${name} listening`);
  return { ...created, port };
}

const save = async (input: unknown) => {
  const saved = await saveMock(actor, scope, MockInput.parse(input));
  invalidateAll();
  return saved.mock;
};

function transport(port: number, options: SMTPTransport.Options = {}) {
  return nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true, ...options });
}

const send = (port: number, mail: nodemailer.SendMailOptions, options?: SMTPTransport.Options) => transport(port, options).sendMail({ from: "alice@example.test", to: "bob@example.test", subject: "Hello", text: "plain body", ...mail });

/** nodemailer's rejection, with the SMTP code and text the server answered. */
async function rejection(p: Promise<unknown>): Promise<{ responseCode?: number; response?: string; code?: string }> {
  try {
    await p;
  } catch (err) {
    return err as { responseCode?: number; response?: string };
  }
  throw new Error("the mail was accepted");
}

describe("SMTP mocks", () => {
  it("each condition list matches its part of the mail; the reply text is templated; the request log and mailbox keep it", async () => {
    const { port } = await server("inbox");
    const bySender = await save({ smtp: { serverName: "inbox", senderConditions: [{ assertAction: "matches", value: "@billing\\.test$" }] }, response: { payload: "queued invoice from $.req.from" } });
    const byRecipient = await save({ smtp: { serverName: "inbox", recipientConditions: [{ assertAction: "equals", value: "support@example.test" }] }, response: { payload: "ticket for $.req.to[0]" } });
    const bySubject = await save({ smtp: { serverName: "inbox", subjectConditions: [{ assertAction: "contains", value: "URGENT" }] }, response: { payload: "paging on '$.req.subject'" } });
    const byBody = await save({ smtp: { serverName: "inbox", bodyConditions: [{ assertAction: "contains", value: "unsubscribe" }] }, response: { payload: "bye" } });
    const byHeader = await save({ smtp: { serverName: "inbox", headerConditions: [{ path: "X-Priority", assertAction: "equals", value: "1" }] }, response: { payload: "priority $.reqHeader.x-priority[0]" } });

    expect((await send(port, { from: "ar@billing.test" })).response).toBe("250 queued invoice from ar@billing.test");
    expect((await send(port, { to: "support@example.test" })).response).toBe("250 ticket for support@example.test");
    expect((await send(port, { subject: "URGENT: disk full" })).response).toBe("250 paging on 'URGENT: disk full'");
    expect((await send(port, { text: "click here to unsubscribe" })).response).toBe("250 bye");
    // The body conditions see the text mailparser derives from an HTML-only mail.
    expect((await send(port, { text: undefined, html: "<p>please <b>unsubscribe</b> me</p>" })).response).toBe("250 bye");
    expect((await send(port, { headers: { "X-Priority": "1" } })).response).toBe("250 priority 1");

    await stubRecorder().drain();
    const logs = await db().requestLog.findMany({ where: { mockId: { in: [bySender.id, byRecipient.id, bySubject.id, byBody.id, byHeader.id] } }, orderBy: { calledAt: "asc" } });
    expect(logs.map((l) => l.mockId)).toEqual([bySender.id, byRecipient.id, bySubject.id, byBody.id, byBody.id, byHeader.id]);
    expect(logs[0]).toMatchObject({ method: "MAIL", url: "/inbox", status: 250, body: expect.objectContaining({ from: "ar@billing.test", to: ["bob@example.test"], subject: "Hello" }) });

    const box = await listMail(scope, { offset: 0, limit: 50, search: "support@" });
    expect(box.messages).toEqual([expect.objectContaining({ serverName: "inbox", from: "alice@example.test", to: ["support@example.test"], mockId: byRecipient.id, replyCode: 250, replyText: "ticket for support@example.test" })]);
  });

  it("recipients: one compares as the address, several as the list (contains finds one of them)", async () => {
    const { port } = await server("team");
    await save({ smtp: { serverName: "team", recipientConditions: [{ assertAction: "contains", value: "ops@example.test" }] }, response: { payload: "to ops" } });
    await save({ smtp: { serverName: "team" }, response: { payload: "anyone else" } });
    expect((await send(port, { to: ["dev@example.test", "ops@example.test"] })).response).toBe("250 to ops");
    expect((await send(port, { to: "dev@example.test" })).response).toBe("250 anyone else");
  });

  it("condition choice between two mocks of one server, and priority decides when both match", async () => {
    const { port } = await server("orders");
    await save({ smtp: { serverName: "orders", subjectConditions: [{ assertAction: "matches", value: "^Order #\\d+$" }] }, response: { payload: "order received" } });
    await save({ smtp: { serverName: "orders", subjectConditions: [{ assertAction: "contains", value: "Refund" }] }, response: { payload: "refund received" } });
    await save({ priority: 5, smtp: { serverName: "orders", subjectConditions: [{ assertAction: "contains", value: "Order" }], senderConditions: [{ assertAction: "equals", value: "vip@example.test" }] }, response: { payload: "vip order" } });
    expect((await send(port, { subject: "Order #42" })).response).toBe("250 order received");
    expect((await send(port, { subject: "Refund please" })).response).toBe("250 refund received");
    expect((await send(port, { subject: "Order #43", from: "vip@example.test" })).response).toBe("250 vip order");
  });

  it("a 5xx/4xx statusCode rejects the mail with that code and the payload as text; the mailbox keeps it with the code", async () => {
    const { port } = await server("strict");
    const reject = await save({ smtp: { serverName: "strict", recipientConditions: [{ assertAction: "equals", value: "nobody@example.test" }] }, response: { statusCode: 550, payload: "5.1.1 <$.req.to[0]>: mailbox unavailable" } });
    await save({ smtp: { serverName: "strict", subjectConditions: [{ assertAction: "equals", value: "later" }] }, response: { statusCode: 451, payload: "try again later" } });
    const refused = await rejection(send(port, { to: "nobody@example.test" }));
    expect(refused.responseCode).toBe(550);
    expect(refused.response).toBe("550 5.1.1 <nobody@example.test>: mailbox unavailable");
    expect((await rejection(send(port, { subject: "later" }))).responseCode).toBe(451);

    const box = await listMail(scope, { offset: 0, limit: 50, search: "nobody@example" });
    expect(box.messages[0]).toMatchObject({ mockId: reject.id, replyCode: 550 });
    await stubRecorder().drain();
    expect(await db().requestLog.findFirst({ where: { mockId: reject.id } })).toMatchObject({ status: 550 });
  });

  it("unmatched mail is accepted with 250, captured as an undefined smtp request, kept as unmatched, and can become a mock", async () => {
    const { port } = await server("catchall");
    await save({ smtp: { serverName: "catchall", subjectConditions: [{ assertAction: "equals", value: "known" }] }, response: { payload: "known" } });
    const info = await send(port, { subject: "a stranger", to: "who@example.test" });
    expect(info.response).toBe("250 OK: message queued");
    await stubRecorder().drain();
    const captured = await db().undefinedRequest.findMany({ where: { namespaceId: scope.id, protocol: "smtp", path: "/catchall" } });
    expect(captured).toEqual([expect.objectContaining({ method: "MAIL", body: expect.objectContaining({ subject: "a stranger", to: ["who@example.test"] }), query: { to: ["who@example.test"] } })]);
    const box = await listMail(scope, { offset: 0, limit: 5, search: "a stranger" });
    expect(box.messages[0]).toMatchObject({ mockId: null, replyCode: 250, serverName: "catchall" });

    await createMockFromUndefinedRequest(actor, scope, captured[0].id, { response: { payload: "now known" } });
    invalidateAll();
    expect((await send(port, { subject: "another stranger" })).response).toBe("250 now known");
  });

  it("a mock without serverName takes mail from any SMTP server of the namespace; a named one wins", async () => {
    const { port } = await server("anywhere");
    await save({ smtp: { subjectConditions: [{ assertAction: "equals", value: "everywhere" }] }, response: { payload: "served by any" } });
    expect((await send(port, { subject: "everywhere" })).response).toBe("250 served by any");
    await save({ smtp: { serverName: "anywhere", subjectConditions: [{ assertAction: "equals", value: "everywhere" }] }, response: { payload: "served by name" } });
    expect((await send(port, { subject: "everywhere" })).response).toBe("250 served by name");
  });

  it("a message over 10 MiB is refused with 552 and not kept", async () => {
    const { port } = await server("small");
    const big = await rejection(send(port, { subject: "too big", attachments: [{ filename: "big.bin", content: Buffer.alloc(10 * 1024 * 1024 + 1, 1) }] }));
    expect(big.responseCode).toBe(552);
    expect((await listMail(scope, { offset: 0, limit: 5, search: "too big" })).total).toBe(0);
  });

  it("the mailbox keeps the HTML body, headers and attachments (bytes downloadable)", async () => {
    const { port } = await server("rich");
    await send(port, {
      subject: "Report ✓",
      from: '"Alice A." <alice@example.test>',
      html: "<h1>Quarterly</h1><script>alert(1)</script>",
      text: "Quarterly",
      cc: "carol@example.test",
      attachments: [
        { filename: "report.csv", content: "a,b\n1,2\n", contentType: "text/csv" },
        { filename: "page.html", content: "<b>not rendered</b>", contentType: "text/html" },
      ],
    });
    const [summary] = (await listMail(scope, { offset: 0, limit: 1, search: "Report" })).messages;
    expect(summary).toMatchObject({ subject: "Report ✓", attachmentCount: 2, from: "alice@example.test" });
    const full = await getMail(scope, summary.id);
    expect(full).toMatchObject({ headerFrom: '"Alice A." <alice@example.test>', cc: "carol@example.test", text: "Quarterly", html: "<h1>Quarterly</h1><script>alert(1)</script>" });
    expect(full.headers).toContainEqual({ name: "Subject", value: "Report ✓" });
    expect(full.attachments).toEqual([
      expect.objectContaining({ index: 0, filename: "report.csv", contentType: "text/csv", size: 8, stored: true }),
      expect.objectContaining({ index: 1, filename: "page.html", contentType: "text/html", stored: true }),
    ]);
    const csv = await readMailAttachment(scope, summary.id, 0);
    expect(Buffer.from(csv.bytes).toString()).toBe("a,b\n1,2\n");
  });

  it("a matched mock's webhooks fire and its extract writes the stores, which a later reply reads", async () => {
    const { port } = await server("hooks");
    await save({
      smtp: { serverName: "hooks", subjectConditions: [{ assertAction: "equals", value: "signup" }] },
      extract: { gStore: { lastSignup: "$.req.to[0]" } },
      response: { payload: "welcome" },
      webhooks: [{ url: `http://127.0.0.1:${hooksPort}/mail/$.req.subject`, method: "POST", body: { to: "$.req.to[0]" }, trigger: "on_success" }],
    });
    await save({ smtp: { serverName: "hooks", subjectConditions: [{ assertAction: "equals", value: "who" }] }, response: { payload: "last signup: $.gS.lastSignup" } });
    expect((await send(port, { subject: "signup", to: "new@example.test" })).response).toBe("250 welcome");
    await until(async () => seen.some((s) => s.url === "/mail/signup"), "the webhook");
    expect(JSON.parse(seen.find((s) => s.url === "/mail/signup")!.body)).toEqual({ to: "new@example.test" });
    expect((await send(port, { subject: "who" })).response).toBe("250 last signup: new@example.test");
  });
});

describe("AUTH and STARTTLS", () => {
  it("auth: true requires AUTH against the server's credentials: none → 530, a wrong password → 535, the right one delivers", async () => {
    const { port } = await server("secured", { options: { auth: true }, credentials: { username: "mailer", password: "s3cret-pass" } });
    await save({ smtp: { serverName: "secured" }, response: { payload: "authenticated delivery" } });
    const anonymous = await rejection(send(port, {}));
    expect(anonymous.responseCode).toBe(530);
    const wrong = await rejection(send(port, {}, { auth: { user: "mailer", pass: "nope" } }));
    expect(wrong.responseCode).toBe(535);
    expect((await send(port, {}, { auth: { user: "mailer", pass: "s3cret-pass" } })).response).toBe("250 authenticated delivery");
    expect((await send(port, {}, { auth: { user: "mailer", pass: "s3cret-pass", method: "LOGIN" } })).response).toBe("250 authenticated delivery");
  });

  it("starttls: true upgrades with a self-signed certificate (requireTLS), and plain delivery still works", async () => {
    const { port } = await server("tls", { options: { starttls: true } });
    await save({ smtp: { serverName: "tls" }, response: { payload: "secure hello" } });
    const info = await send(port, {}, { ignoreTLS: false, requireTLS: true, tls: { rejectUnauthorized: false } });
    expect(info.response).toBe("250 secure hello");
    // A client that verifies the certificate refuses it: it is self-signed.
    const verified = await rejection(send(port, {}, { ignoreTLS: false, requireTLS: true, tls: { rejectUnauthorized: true } }));
    expect(verified.code).toBe("ESOCKET");
    expect((await send(port, {})).response).toBe("250 secure hello");
  });

  it("without starttls, a client that requires TLS is refused (STARTTLS is not offered)", async () => {
    const { port } = await server("plain");
    const refused = await rejection(send(port, {}, { ignoreTLS: false, requireTLS: true }));
    expect(refused.code).toBe("ETLS");
  });
});

describe("listener lifecycle", () => {
  it("a port in use is the server's error state, not a crash; freeing it and changing the row starts it", async () => {
    const squatter = net.createServer();
    await new Promise<void>((r) => squatter.listen(0, "127.0.0.1", r));
    const port = (squatter.address() as AddressInfo).port;
    const taken = await createProtocolServer(scope, CreateProtocolServerInput.parse({ name: "taken", protocol: "smtp", host: "127.0.0.1", port }));
    const failed = await until(async () => {
      const v = await getProtocolServer(scope, taken.id);
      return v.state === "error" && v;
    }, "the error state");
    expect(failed.stateReason).toBe(`port ${port} is in use`);
    expect(runner.listeners()).toContainEqual(expect.objectContaining({ id: taken.id, protocol: "smtp", state: "error" }));
    await new Promise((r) => squatter.close(r));
    await updateProtocolServer(scope, taken.id, { options: { starttls: false, auth: false } });
    await until(async () => (await getProtocolServer(scope, taken.id)).state === "listening", "listening after the change");
    expect((await send(port, {})).response).toMatch(/^250 /);
  });
});
