// SMTP mocks (served by the protocol runner, protocol-runner/smtp): a mail
// received by the protocol server named `smtp.serverName` (any SMTP server of
// the namespace when the mock names none) sits on the route "/<serverName>",
// and the mock's five condition lists become ordinary conditions over the
// mail as the engine sees it (SmtpMail below):
//   senderConditions    → `from` (envelope MAIL FROM; header From when it is empty)
//   recipientConditions → the envelope recipients (RCPT TO), held in the query
//                         map as `to`: one recipient compares as that address,
//                         several as the list, like a repeated header
//   subjectConditions   → `subject`
//   bodyConditions      → `text` (the text part; mailparser derives it from
//                         the HTML when there is none)
//   headerConditions    → the mail header named by the condition's `path`
// The lists' `path` is ignored except for headerConditions.
import type { Condition, SmtpBlock } from "@/server/contracts/mock";
import type { z } from "zod";
import { joinRoute } from "../route";
import type { Placer } from "./placement";

type SmtpCondition = NonNullable<z.infer<typeof SmtpBlock>["senderConditions"]>[number];

/** The method of every mail's EngineRequest (smtp mocks have no selector). */
export const SMTP_METHOD = "MAIL";
/** The query key that holds the envelope recipients. */
export const RECIPIENTS_KEY = "to";

/** The mail as `$.req` and the body conditions see it. */
export interface SmtpMail {
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  html: string | null;
  /** Header values by lower-case name; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  attachments: { filename: string | null; contentType: string; size: number }[];
}

const bodyCondition = (path: string) => (c: SmtpCondition): Condition => ({ ...c, path }) as Condition;

export const placeSmtp: Placer = (def) => {
  if (!def.smtp) return null;
  const smtp = def.smtp;
  const conditions = [
    ...(smtp.senderConditions ?? []).map(bodyCondition("$.from")),
    ...(smtp.subjectConditions ?? []).map(bodyCondition("$.subject")),
    ...(smtp.bodyConditions ?? []).map(bodyCondition("$.text")),
  ];
  const queryParams = (smtp.recipientConditions ?? []).map(bodyCondition(RECIPIENTS_KEY));
  const header = (smtp.headerConditions ?? []).map((c) => ({ ...c, path: c.path ?? "" }) as Condition);
  // Without a server name the mock takes mail from any SMTP server of the namespace; a named one ranks first.
  return { route: smtpRoute(smtp.serverName || ":server"), selector: null, conditions: { conditions, queryParams, header } };
};

export function smtpRoute(serverName: string): string {
  return joinRoute(undefined, serverName);
}

/** What the SMTP client is told: a 4xx/5xx status rejects the mail with that code; anything else is 250. */
export interface SmtpReply {
  code: number;
  text: string;
}

export const ACCEPTED_TEXT = "OK: message queued";
const REJECTED_TEXT = "Message rejected";

/**
 * The reply of a matched mock: `response.statusCode` 400–599 is that SMTP code
 * (the mail is refused), any other (absent → 200, the HTTP default) accepts
 * with 250; the rendered payload is the reply text (a string as is, anything
 * else as JSON), on one line.
 */
export function smtpReply(status: number, payload: unknown): SmtpReply {
  const code = status >= 400 && status <= 599 ? status : 250;
  let text = payload === undefined || payload === null || payload === "" ? "" : typeof payload === "string" ? payload : JSON.stringify(payload);
  text = text.replace(/[\r\n]+/g, " ").trim();
  return { code, text: text || (code === 250 ? ACCEPTED_TEXT : REJECTED_TEXT) };
}
