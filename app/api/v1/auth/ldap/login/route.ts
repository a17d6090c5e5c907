import { sessionCookieHeader } from "@/server/auth/session-cookie";
import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute, Reply } from "@/server/http/define-route";
import { isSecureRequest } from "@/server/http/request-meta";
import { ldapLogin } from "@/server/services/ldap";

export const POST = defineRoute(authEndpoints.ldapLogin, async ({ req, body, ip }) => {
  const { session, user } = await ldapLogin(body, { ip, userAgent: req.headers.get("user-agent") });
  return new Reply(
    { user, expiresAt: session.expiresAt.toISOString() },
    { headers: { "Set-Cookie": sessionCookieHeader(session.token, { expires: session.expiresAt, secure: isSecureRequest(req) }) } },
  );
});
