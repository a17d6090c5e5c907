// The namespace's SMTP mailbox: list (newest first, searchable) and clear.
import { smtpMailboxEndpoints } from "@/server/contracts/smtp-mailbox";
import { defineRoute } from "@/server/http/define-route";
import { clearMailbox, listMail } from "@/server/services/smtp-mailbox";

export const GET = defineRoute(smtpMailboxEndpoints.list, ({ namespace, query }) => listMail(namespace, query));
export const DELETE = defineRoute(smtpMailboxEndpoints.clear, ({ namespace }) => clearMailbox(namespace));
