import { clearSessionCookieHeader } from "@/server/auth/session-cookie";
import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute, Reply } from "@/server/http/define-route";
import { isSecureRequest } from "@/server/http/request-meta";
import { logout } from "@/server/services/auth";

export const POST = defineRoute(authEndpoints.logout, async ({ req, actor }) => {
  await logout(actor);
  return new Reply({ ok: true }, { headers: { "Set-Cookie": clearSessionCookieHeader(isSecureRequest(req)) } });
});
