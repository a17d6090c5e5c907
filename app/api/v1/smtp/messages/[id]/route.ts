// One received mail: read in full, delete.
import { smtpMailboxEndpoints } from "@/server/contracts/smtp-mailbox";
import { defineRoute } from "@/server/http/define-route";
import { deleteMail, getMail } from "@/server/services/smtp-mailbox";

export const GET = defineRoute(smtpMailboxEndpoints.get, ({ namespace, params }) => getMail(namespace, params.id));
export const DELETE = defineRoute(smtpMailboxEndpoints.remove, ({ namespace, params }) => deleteMail(namespace, params.id));
