// The cookies an answer set, as the response view and `pm.response.cookies`
// list them: parsed from Set-Cookie with tough-cookie (the same parser the
// cookie jar uses, so what is shown is what is stored), with the request's
// host and default path filled in where the server left them out.
import { Cookie, defaultPath } from "tough-cookie";
import type { ResponseCookie } from "@/server/contracts/tester-execution";

const SAME_SITE: Record<string, string> = { strict: "Strict", lax: "Lax", none: "None" };

export function parseSetCookies(values: readonly string[], url: URL, now: Date = new Date()): ResponseCookie[] {
  const out: ResponseCookie[] = [];
  for (const value of values) {
    const c = Cookie.parse(value, { loose: true });
    // Loose parsing (browsers accept `=value` and bare values) reads a blank header as an empty cookie.
    if (!c || (c.key === "" && c.value === "")) continue;
    // Infinity is a session cookie (no expiry shown); -Infinity a deletion (Max-Age=0), shown as already expired.
    const t = c.expiryTime(now);
    const expires = t === undefined || t === Infinity ? undefined : new Date(t === -Infinity ? 0 : t);
    out.push({
      name: c.key,
      value: c.value,
      domain: c.domain ?? url.hostname,
      path: c.path ?? defaultPath(url.pathname),
      ...(expires && Number.isFinite(expires.getTime()) ? { expires: expires.toISOString() } : {}),
      httpOnly: c.httpOnly,
      secure: c.secure,
      ...(c.sameSite && c.sameSite !== "unspecified" ? { sameSite: SAME_SITE[c.sameSite.toLowerCase()] ?? c.sameSite } : {}),
    });
  }
  return out;
}

/** Cookies of several answers (redirect hops then the final one): a later cookie replaces an earlier one of the same name, domain and path. */
export function mergeCookies(lists: readonly ResponseCookie[][]): ResponseCookie[] {
  const byKey = new Map<string, ResponseCookie>();
  for (const list of lists) for (const c of list) {
    const key = `${c.name}\u0000${c.domain}\u0000${c.path}`;
    byKey.delete(key);
    byKey.set(key, c);
  }
  return [...byKey.values()];
}
