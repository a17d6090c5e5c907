// The signed-in user's own account, and the anonymous account helpers the
// login pages need. Login, LDAP login and logout stay on REST
// (/api/v1/auth/login, /ldap/login, /logout): they set or clear the session
// cookie and carry the per-IP login limit, and the UI calls them directly.
import {
  ChangePasswordInput,
  ForgotPasswordInput,
  ResetPasswordInput,
  UpdateProfileInput,
  VerifyEmailQuery,
} from "@/server/contracts/auth";
import { changePassword, loadMe, updateProfile } from "@/server/services/auth";
import { forgotPassword, resendVerification, resetPassword, verifyEmail } from "@/server/services/email-flows";
import { listPublicProviders } from "@/server/services/identity-providers";
import { authRateLimitedProcedure, createTRPCRouter, permissionProcedure, protectedProcedure, publicProcedure } from "../trpc";

export const authRouter = createTRPCRouter({
  me: protectedProcedure.query(({ ctx }) => loadMe(ctx.actor.user.id)),
  updateProfile: permissionProcedure("write")
    .input(UpdateProfileInput)
    .mutation(({ ctx, input }) => updateProfile(ctx.actor, input)),
  changePassword: permissionProcedure("write")
    .input(ChangePasswordInput)
    .mutation(({ ctx, input }) => changePassword(ctx.actor, input)),
  resendVerification: permissionProcedure("write").mutation(({ ctx }) => resendVerification(ctx.actor.user.id)),

  /** Enabled sign-in providers, for the login page. */
  providers: publicProcedure.query(() => listPublicProviders()),
  forgotPassword: authRateLimitedProcedure
    .input(ForgotPasswordInput)
    .mutation(({ ctx, input }) => forgotPassword(input.email, ctx.ip)),
  resetPassword: authRateLimitedProcedure
    .input(ResetPasswordInput)
    .mutation(({ ctx, input }) => resetPassword(input.token, input.newPassword, ctx.ip)),
  verifyEmail: authRateLimitedProcedure
    .input(VerifyEmailQuery)
    .mutation(({ ctx, input }) => verifyEmail(input.token, ctx.ip)),
});
