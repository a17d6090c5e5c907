import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute } from "@/server/http/define-route";
import { resendVerification, verifyEmail } from "@/server/services/email-flows";

export const GET = defineRoute(authEndpoints.verifyEmail, ({ query, ip }) => verifyEmail(query.token, ip));
export const POST = defineRoute(authEndpoints.resendVerification, ({ actor }) => resendVerification(actor.user.id));
