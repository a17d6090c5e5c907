// GET /api/v1/auth/oauth/login/<slug> starts an OAuth/OIDC sign-in. next-auth
// v4 only starts one on a POST to /api/auth/signin/<slug> that carries its CSRF
// token (double-submit: the token in the body, token|hash in a cookie). So this
// endpoint answers a small page holding that form, already filled in, which a
// one-line script submits at once (a button does it without JavaScript).
// The token comes from next-auth itself: its "csrf" action is run in-process
// for this request, which also sets the cookie half when the browser lacks it.
import { createHash } from "node:crypto";
import { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { errors } from "@/server/errors";
import { authBaseUrl, buildAuthOptions } from "./options";

/**
 * The path to land on after signing in. Only places on this site are accepted
 * (open-redirect protection): a path, or an absolute URL of this origin.
 * Returns null for anything else, including "//host" and "/\host", which
 * browsers read as other hosts.
 */
export function safeCallbackPath(raw: string | undefined, baseUrl: string): string | null {
  if (raw === undefined || raw === "") return "/";
  let url: URL;
  try {
    url = new URL(raw, baseUrl);
  } catch {
    return null;
  }
  const isAbsolute = /^[a-z][a-z0-9+.-]*:/i.test(raw);
  if (!isAbsolute && !raw.startsWith("/")) return null;
  if (url.origin !== new URL(baseUrl).origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

export function requireSafeCallbackPath(raw: string | undefined): string {
  const path = safeCallbackPath(raw, authBaseUrl());
  if (path === null) {
    throw errors.validation("callbackUrl must be a path on this site", [
      { location: "query", field: "callbackUrl", message: "only paths on this site are accepted" },
    ]);
  }
  return path;
}

/** next-auth's CSRF token for this browser, and the cookie to set when it had none. */
export async function issueCsrfToken(req: Request): Promise<{ csrfToken: string; setCookies: string[] }> {
  const csrfRequest = new NextRequest(`${authBaseUrl()}/api/auth/csrf`, { headers: req.headers });
  const res: Response = await NextAuth(csrfRequest, { params: Promise.resolve({ nextauth: ["csrf"] }) }, await buildAuthOptions(req));
  const body = (await res.json()) as { csrfToken?: string };
  if (!res.ok || !body.csrfToken) throw new Error(`next-auth answered the CSRF request with ${res.status}`);
  return { csrfToken: body.csrfToken, setCookies: res.headers.getSetCookie() };
}

const SUBMIT_SCRIPT = 'document.getElementById("start").submit();';
const SCRIPT_HASH = createHash("sha256").update(SUBMIT_SCRIPT).digest("base64");

/** Only the one script above may run; the page may not be framed. */
export const LOGIN_START_CSP = `default-src 'none'; script-src 'sha256-${SCRIPT_HASH}'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'`;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

export function loginStartPage(opts: { slug: string; providerName: string; csrfToken: string; callbackUrl: string }): string {
  const name = escapeHtml(opts.providerName);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Signing in with ${name} · Polymock</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;color:#333}button{font:inherit;padding:.5rem 1rem;cursor:pointer}</style>
</head>
<body>
<form id="start" method="post" action="/api/auth/signin/${encodeURIComponent(opts.slug)}">
<input type="hidden" name="csrfToken" value="${escapeHtml(opts.csrfToken)}">
<input type="hidden" name="callbackUrl" value="${escapeHtml(opts.callbackUrl)}">
<p>Redirecting to ${name}…</p>
<noscript><button type="submit">Continue to ${name}</button></noscript>
</form>
<script>${SUBMIT_SCRIPT}</script>
</body>
</html>
`;
}
