// One received mail through the serving core, as thin as the TCP/UDP
// exchange (../socket/exchange.ts): the parsed mail becomes an EngineRequest
// for the smtp mocks of the protocol server's namespace, a match is logged
// and its webhooks dispatched, a miss is an undefined request of protocol
// `smtp` (accepted with 250, as a catch-all mailbox would); either way the
// mail lands in the namespace's mailbox before the client hears the reply.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { isMockError } from "@/server/engine/mock-error";
import { ACCEPTED_TEXT, RECIPIENTS_KEY, SMTP_METHOD, smtpReply, smtpRoute, type SmtpReply } from "@/server/engine/protocols/smtp";
import type { EngineRequest } from "@/server/engine/types";
import { logger } from "@/server/lib/logger";
import { engineDepsFor } from "@/server/serving/engine-deps";
import { namespaceMocks, namespaceMocksNow } from "@/server/serving/mock-index";
import { answered, recordMiss, serve, type AfterSend, type ServingScope } from "@/server/serving/serve";
import { recordReceivedMail } from "@/server/services/smtp-mailbox";
import { parseReceived, type Envelope, type ParsedReceived } from "./parse-mail";

export interface MailServer {
  namespace: string;
  namespaceId: string;
  serverName: string;
}

export interface Answer extends SmtpReply {
  /** Starts the mock's non-blocking webhooks once the reply is sent. */
  afterSend?: () => void;
}

async function scopeFor(server: MailServer, parsed: ParsedReceived, envelope: Envelope): Promise<ServingScope | undefined> {
  const index = namespaceMocksNow(server.namespace) ?? (await namespaceMocks(server.namespace));
  if (!index) return undefined;
  return {
    namespace: server.namespace,
    index,
    deps: await engineDepsFor(index),
    requestId: randomUUID(),
    started: performance.now(),
    path: smtpRoute(server.serverName),
    search: "",
    query: { [RECIPIENTS_KEY]: envelope.to },
    headers: parsed.engineHeaders,
  };
}

interface Outcome extends Answer {
  mockId: string | null;
}

async function match(server: MailServer, parsed: ParsedReceived, envelope: Envelope): Promise<Outcome> {
  const accepted: Outcome = { code: 250, text: ACCEPTED_TEXT, mockId: null };
  const scope = await scopeFor(server, parsed, envelope);
  if (!scope) return accepted;
  const req: EngineRequest = { namespace: server.namespace, method: SMTP_METHOD, path: scope.path, headers: scope.headers, query: scope.query, body: parsed.mail };
  let result;
  try {
    result = await serve("smtp", scope, req);
  } catch (err) {
    // A broken mock (missing template file): the sender is told to retry later, the runner goes on.
    if (!isMockError(err)) throw err;
    logger().warn({ err, namespace: server.namespace, serverName: server.serverName }, "smtp mock failed");
    return { code: 451, text: "Requested action aborted: the mock failed", mockId: null };
  }
  if (!result.matched) {
    recordMiss(scope, { protocol: "smtp", method: SMTP_METHOD, body: parsed.mail });
    return accepted;
  }
  const { response } = result;
  const reply = smtpReply(response.status, response.body);
  const hooks: AfterSend = {};
  await answered(scope, result, reply.code, hooks, { method: SMTP_METHOD, body: parsed.mail }, { body: reply.text });
  if (response.delayMs > 0) await sleep(response.delayMs);
  return { ...reply, mockId: result.mock.id, afterSend: hooks.afterSend };
}

/** Serves one mail and keeps it in the mailbox; resolves with the reply for the DATA command. */
export async function receiveMail(server: MailServer, envelope: Envelope, raw: Buffer): Promise<Answer> {
  const parsed = await parseReceived(raw, envelope);
  const outcome = await match(server, parsed, envelope);
  try {
    await recordReceivedMail({
      namespaceId: server.namespaceId,
      serverName: server.serverName,
      envelopeFrom: envelope.from,
      envelopeTo: envelope.to,
      headerFrom: parsed.headerFrom,
      headerTo: parsed.headerTo,
      cc: parsed.cc,
      subject: parsed.mail.subject,
      text: parsed.mail.text || null,
      html: parsed.mail.html,
      headers: parsed.headerPairs,
      rawSize: raw.length,
      mockId: outcome.mockId,
      replyCode: outcome.code,
      replyText: outcome.text,
      attachments: parsed.attachments,
    });
  } catch (err) {
    // The mailbox is for people; the sender's answer does not depend on it.
    logger().error({ err, namespace: server.namespace, serverName: server.serverName }, "could not keep a received mail");
  }
  return { code: outcome.code, text: outcome.text, afterSend: outcome.afterSend };
}
