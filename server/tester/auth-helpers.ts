// The auth helpers of a request (Postman's Authorization tab): which one
// applies after `inherit` is followed up the folders to the collection, and
// the header or query parameter it adds. As in Postman, a helper never
// replaces a header the user wrote: an explicit Authorization header (or the
// API key's header) wins, and the OAuth 2.0 token is then not even fetched.
import type { RequestAuth, RequestSettings } from "@/server/contracts/tester-request";
import type { ResolveOAuth2Token } from "./oauth2";
import { hasHeader, type HeaderEntry } from "./prepared-request";
import type { Substituter } from "./variables";

/**
 * The auth that applies: the request's own, else the nearest folder's, else
 * the collection's (`inherited` is ordered nearest first). A `none` anywhere
 * on that walk means no auth, and so does a chain that ends in `inherit`.
 */
export function effectiveAuth(own: RequestAuth, inherited: readonly RequestAuth[] = []): RequestAuth | undefined {
  for (const auth of [own, ...inherited]) {
    if (auth.type === "inherit") continue;
    return auth.type === "none" ? undefined : auth;
  }
  return undefined;
}

export interface AuthAddition {
  headers: HeaderEntry[];
  query: HeaderEntry[];
}

/** What `auth` adds to a request whose user-written headers are `headers`; variables in its fields are substituted. */
export async function authAddition(
  auth: RequestAuth | undefined,
  sub: Substituter,
  headers: readonly HeaderEntry[],
  settings: Pick<RequestSettings, "verifyTls" | "timeoutMs">,
  resolveToken: ResolveOAuth2Token,
): Promise<AuthAddition> {
  const out: AuthAddition = { headers: [], query: [] };
  if (!auth) return out;
  const authorization = (value: string) => {
    if (!hasHeader(headers, "authorization")) out.headers.push({ key: "Authorization", value });
  };
  switch (auth.type) {
    case "bearer": {
      const token = sub.text(auth.bearer?.token ?? "").trim();
      if (token) authorization(`Bearer ${token}`);
      break;
    }
    case "basic": {
      if (!auth.basic) break;
      const credentials = `${sub.text(auth.basic.username)}:${sub.text(auth.basic.password)}`;
      authorization(`Basic ${Buffer.from(credentials, "utf8").toString("base64")}`);
      break;
    }
    case "apikey": {
      if (!auth.apikey) break;
      const key = sub.text(auth.apikey.key).trim();
      const value = sub.text(auth.apikey.value);
      if (!key) break;
      if (auth.apikey.in === "query") out.query.push({ key, value });
      else if (!hasHeader(headers, key)) out.headers.push({ key, value });
      break;
    }
    case "oauth2": {
      if (!auth.oauth2 || hasHeader(headers, "authorization")) break;
      const o = auth.oauth2;
      const cfg = {
        ...o,
        accessTokenUrl: sub.text(o.accessTokenUrl).trim(),
        clientId: sub.text(o.clientId),
        clientSecret: sub.text(o.clientSecret),
        ...(o.scope !== undefined ? { scope: sub.text(o.scope) } : {}),
        ...(o.audience !== undefined ? { audience: sub.text(o.audience) } : {}),
      };
      authorization(`Bearer ${await resolveToken(cfg, settings)}`);
      break;
    }
  }
  return out;
}
