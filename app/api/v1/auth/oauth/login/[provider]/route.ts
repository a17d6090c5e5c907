// Starts an OAuth/OIDC sign-in with a configured provider: answers a page that
// posts next-auth's sign-in form at once (see server/next-auth/login-start.ts).
import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute } from "@/server/http/define-route";
import { issueCsrfToken, LOGIN_START_CSP, loginStartPage, requireSafeCallbackPath } from "@/server/next-auth/login-start";
import { OAUTH_PROVIDER_TYPES } from "@/server/next-auth/providers";
import { findEnabledProvider } from "@/server/services/identity-providers";

export const GET = defineRoute(authEndpoints.oauthLogin, async ({ req, params, query }) => {
  const provider = await findEnabledProvider(params.provider, [...OAUTH_PROVIDER_TYPES]);
  const callbackUrl = requireSafeCallbackPath(query.callbackUrl);
  const { csrfToken, setCookies } = await issueCsrfToken(req);
  const headers = new Headers({
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Security-Policy": LOGIN_START_CSP,
    "Referrer-Policy": "no-referrer",
  });
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return new Response(loginStartPage({ slug: provider.slug, providerName: provider.name, csrfToken, callbackUrl }), { status: 200, headers });
});
