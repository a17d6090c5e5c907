import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute } from "@/server/http/define-route";
import { forgotPassword } from "@/server/services/email-flows";

export const POST = defineRoute(authEndpoints.forgotPassword, ({ body, ip }) => forgotPassword(body.email, ip));
