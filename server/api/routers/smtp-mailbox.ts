// The SMTP mailbox for the console: the same service as the REST routes.
import { IdParams } from "@/server/contracts/common";
import { MailListQuery } from "@/server/contracts/smtp-mailbox";
import { clearMailbox, deleteMail, getMail, listMail } from "@/server/services/smtp-mailbox";
import { nsDelete, nsRead } from "../namespaced";
import { createTRPCRouter } from "../trpc";

export const smtpMailboxRouter = createTRPCRouter({
  list: nsRead.input(MailListQuery.partial()).query(({ ctx, input }) => listMail(ctx.scope, MailListQuery.parse(input))),
  get: nsRead.input(IdParams).query(({ ctx, input }) => getMail(ctx.scope, input.id)),
  remove: nsDelete.input(IdParams).mutation(({ ctx, input }) => deleteMail(ctx.scope, input.id)),
  clear: nsDelete.mutation(({ ctx }) => clearMailbox(ctx.scope)),
});
