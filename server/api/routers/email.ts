// The admin SMTP configuration.
import { EmailConfigInput, EmailTestInput } from "@/server/contracts/email";
import { getEmailConfig, pingEmail, saveEmailConfig, sendTestEmail } from "@/server/services/email";
import { adminProcedure, createTRPCRouter } from "../trpc";

export const emailRouter = createTRPCRouter({
  config: adminProcedure.query(() => getEmailConfig()),
  saveConfig: adminProcedure.input(EmailConfigInput).mutation(({ ctx, input }) => saveEmailConfig(ctx.actor, input)),
  ping: adminProcedure.mutation(() => pingEmail()),
  sendTest: adminProcedure.input(EmailTestInput).mutation(({ ctx, input }) => sendTestEmail(ctx.actor, input.to)),
});
