// An attachment's bytes, always as a download: mail content is the sender's, never rendered here.
import { smtpMailboxEndpoints } from "@/server/contracts/smtp-mailbox";
import { defineRoute } from "@/server/http/define-route";
import { fileResponse } from "@/server/http/file-transfer";
import { readMailAttachment } from "@/server/services/smtp-mailbox";

export const GET = defineRoute(smtpMailboxEndpoints.attachment, async ({ namespace, params }) => fileResponse(await readMailAttachment(namespace, params.id, params.index), "attachment"));
