// The SMTP mailbox: every mail the runner's SMTP protocol servers received in
// a namespace, matched by a mock or not, kept (the newest MAILBOX_KEEP) so the
// console can show it like Mailpit: list and search, one mail in full, its
// attachments' bytes, delete one or clear all.
import { z } from "zod";
import { IdParams, OkResponse, Paging, Timestamp } from "./common";
import { endpoint } from "./endpoint";

/** Mails kept per namespace; older ones are pruned as new ones arrive. */
export const MAILBOX_KEEP = 500;
/** Bytes of attachment content kept per mail; attachments beyond it keep their metadata only. */
export const MAILBOX_CONTENT_BUDGET = 5 * 1024 * 1024;

export const MailListQuery = Paging.extend({
  search: z.string().trim().max(200).optional().describe("case-insensitive substring of the sender, a recipient or the subject"),
});
export type MailListQuery = z.infer<typeof MailListQuery>;

export const MailSummary = z.object({
  id: z.string().uuid(),
  serverName: z.string().describe("the SMTP protocol server that received it"),
  from: z.string().describe("envelope sender (MAIL FROM)"),
  to: z.array(z.string()).describe("envelope recipients (RCPT TO)"),
  subject: z.string(),
  mockId: z.string().nullable().describe("the mock that matched; null when none did"),
  replyCode: z.number().int().describe("the SMTP code the client was answered (250 accepted, 4xx/5xx rejected)"),
  replyText: z.string(),
  size: z.number().int().describe("bytes of the raw message"),
  attachmentCount: z.number().int(),
  receivedAt: Timestamp,
});
export type MailSummary = z.infer<typeof MailSummary>;

export const MailList = z.object({ messages: z.array(MailSummary), total: z.number().int(), offset: z.number().int(), limit: z.number().int() });
export type MailList = z.infer<typeof MailList>;

export const MailAttachmentView = z.object({
  index: z.number().int().describe("its place in the mail; GET …/attachments/{index} answers its bytes"),
  filename: z.string().nullable(),
  contentType: z.string(),
  size: z.number().int(),
  contentId: z.string().nullable(),
  inline: z.boolean(),
  stored: z.boolean().describe("false when the mail's content budget was spent: metadata only"),
});
export type MailAttachmentView = z.infer<typeof MailAttachmentView>;

export const MailView = MailSummary.extend({
  headerFrom: z.string().nullable().describe("the From header as written"),
  headerTo: z.string().nullable(),
  cc: z.string().nullable(),
  headers: z.array(z.object({ name: z.string(), value: z.string() })).describe("in message order; a header may repeat"),
  text: z.string().nullable(),
  html: z.string().nullable().describe("the HTML part as sent: show it only in a sandboxed frame"),
  attachments: z.array(MailAttachmentView),
});
export type MailView = z.infer<typeof MailView>;

export const AttachmentParams = IdParams.extend({ index: z.coerce.number().int({ message: "must be an integer" }).min(0, "must be 0 or more") });

export const MailboxCleared = z.object({ ok: z.literal(true), deleted: z.number().int() });

const tag = "SMTP mailbox";
export const smtpMailboxEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/smtp/messages", tag, summary: "Mails received by the namespace's SMTP servers, newest first (paged, searchable)", auth: "user", namespaced: true, permission: "read", query: MailListQuery, response: MailList }),
  clear: endpoint({ method: "DELETE", path: "/api/v1/smtp/messages", tag, summary: "Empty the namespace's mailbox", auth: "user", namespaced: true, permission: "delete", response: MailboxCleared }),
  get: endpoint({ method: "GET", path: "/api/v1/smtp/messages/{id}", tag, summary: "One mail in full: headers, text and HTML bodies, attachments' metadata", auth: "user", namespaced: true, permission: "read", params: IdParams, response: MailView }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/smtp/messages/{id}", tag, summary: "Delete one mail", auth: "user", namespaced: true, permission: "delete", params: IdParams, response: OkResponse }),
  attachment: endpoint({ method: "GET", path: "/api/v1/smtp/messages/{id}/attachments/{index}", tag, summary: "An attachment's bytes with its content type, as a download (404 when only its metadata was kept)", auth: "user", namespaced: true, permission: "read", params: AttachmentParams, produces: "*/*" }),
} as const;
