import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute } from "@/server/http/define-route";
import { resetPassword } from "@/server/services/email-flows";

export const POST = defineRoute(authEndpoints.resetPassword, ({ body, ip }) => resetPassword(body.token, body.newPassword, ip));
