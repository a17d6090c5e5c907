// OAuth 2.0 client credentials (RFC 6749 §4.4): the token the oauth2 auth
// helper puts in `Authorization: Bearer`, fetched from the token endpoint
// through the tester's own HTTP client (so the outbound policy and TLS
// setting apply to it too) and cached until it expires, so a 1,000-request
// run asks once. Concurrent requests for the same token share one fetch.
import { createHash } from "node:crypto";
import type { ExecutedResponse } from "@/server/contracts/tester-execution";
import { RequestSettings, type RequestAuth } from "@/server/contracts/tester-request";
import { RequestBuildError } from "./build-error";
import { sendHttp, type SendOptions } from "./http-client";
import type { PreparedRequest } from "./prepared-request";
import { SendError } from "./send-error";

export type OAuth2ClientCredentials = NonNullable<RequestAuth["oauth2"]>;

/** The settings of the request the token is for: its TLS verification and timeout apply to the token request. */
export type ResolveOAuth2Token = (cfg: OAuth2ClientCredentials, settings?: Pick<RequestSettings, "verifyTls" | "timeoutMs">) => Promise<string>;

/** A token without `expires_in` is asked for again after this long. */
export const DEFAULT_TOKEN_TTL_MS = 5 * 60_000;
/** A token this close to expiring is replaced rather than sent to be refused. */
const EXPIRY_MARGIN_MS = 10_000;
const MAX_CACHED = 500;

export interface OAuth2ResolverOptions {
  /** How the token request is sent; the tester's HTTP client by default. */
  send?: (req: PreparedRequest, opts: SendOptions) => Promise<ExecutedResponse>;
  sendOptions?: SendOptions;
  now?: () => number;
}

// RFC 6749 §2.3.1: the client id and secret are form-encoded before they are joined and base64-encoded.
const formEncode = (s: string) => new URLSearchParams({ s }).toString().slice(2);

function tokenRequest(cfg: OAuth2ClientCredentials, settings: RequestSettings): PreparedRequest {
  const form = new URLSearchParams({ grant_type: "client_credentials" });
  if (cfg.scope) form.set("scope", cfg.scope);
  if (cfg.audience) form.set("audience", cfg.audience);
  const headers = [
    { key: "Content-Type", value: "application/x-www-form-urlencoded" },
    { key: "Accept", value: "application/json" },
  ];
  if (cfg.clientAuthentication === "body") {
    form.set("client_id", cfg.clientId);
    form.set("client_secret", cfg.clientSecret);
  } else {
    headers.push({ key: "Authorization", value: `Basic ${Buffer.from(`${formEncode(cfg.clientId)}:${formEncode(cfg.clientSecret)}`).toString("base64")}` });
  }
  const text = form.toString();
  const url = /^[a-z][a-z\d+.-]*:\/\//i.test(cfg.accessTokenUrl) ? cfg.accessTokenUrl : `http://${cfg.accessTokenUrl}`;
  return { method: "POST", url, headers, body: Buffer.from(text), bodyPreview: { body: text, bodyEncoding: "utf8" }, settings, unresolved: [] };
}

/** The fields of a token answer, JSON or (as some older servers send) form-encoded. */
function answerFields(res: ExecutedResponse): Record<string, unknown> {
  const text = res.bodyEncoding === "utf8" ? res.body : "";
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {}
  return Object.fromEntries(new URLSearchParams(text));
}

async function fetchToken(cfg: OAuth2ClientCredentials, settings: RequestSettings, opts: OAuth2ResolverOptions, now: number): Promise<{ token: string; expiresAt: number }> {
  const where = cfg.accessTokenUrl;
  let res: ExecutedResponse;
  try {
    res = await (opts.send ?? sendHttp)(tokenRequest(cfg, settings), opts.sendOptions ?? {});
  } catch (err) {
    const why = err instanceof SendError ? err.message : String(err);
    throw new RequestBuildError("oauth2", `Could not get an OAuth 2.0 token from ${where}: ${why}`, { cause: err });
  }
  const fields = answerFields(res);
  if (res.status < 200 || res.status > 299 || typeof fields.access_token !== "string" || fields.access_token === "") {
    const error = typeof fields.error === "string" ? fields.error : undefined;
    const description = typeof fields.error_description === "string" ? fields.error_description : undefined;
    const said = error ? `: ${error}${description ? ` (${description})` : ""}` : res.status >= 200 && res.status < 300 ? ", but the answer holds no access_token" : "";
    throw new RequestBuildError("oauth2", `The OAuth 2.0 token endpoint ${where} answered ${res.status} ${res.statusText}${said}.`);
  }
  const expiresIn = Number(fields.expires_in);
  const ttl = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : DEFAULT_TOKEN_TTL_MS;
  return { token: fields.access_token, expiresAt: now + ttl };
}

/**
 * A token source with its own cache: one per run, or the process-wide default.
 * The cache key holds the token URL, client id, scope and audience as the
 * spec says, and also a hash of the client secret: otherwise someone who knows
 * only a client id could be handed the token another user's secret obtained.
 */
export function createOAuth2TokenResolver(opts: OAuth2ResolverOptions = {}): ResolveOAuth2Token {
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { token: string; expiresAt: number }>();
  const pending = new Map<string, Promise<string>>();

  return async (cfg, settings) => {
    const key = JSON.stringify([
      cfg.accessTokenUrl,
      cfg.clientId,
      cfg.scope ?? "",
      cfg.audience ?? "",
      cfg.clientAuthentication,
      createHash("sha256").update(cfg.clientSecret).digest("base64"),
    ]);
    const cached = cache.get(key);
    if (cached && cached.expiresAt - EXPIRY_MARGIN_MS > now()) return cached.token;
    const inFlight = pending.get(key);
    if (inFlight) return inFlight;
    const full = RequestSettings.parse({ verifyTls: settings?.verifyTls ?? true, timeoutMs: settings?.timeoutMs ?? 30_000 });
    const fetching = fetchToken(cfg, full, opts, now())
      .then((got) => {
        cache.set(key, got);
        // The process-wide resolver lives as long as the process: expired tokens must not pile up.
        if (cache.size > MAX_CACHED) for (const [k, v] of cache) if (v.expiresAt <= now()) cache.delete(k);
        return got.token;
      })
      .finally(() => pending.delete(key));
    pending.set(key, fetching);
    return fetching;
  };
}

export const defaultOAuth2TokenResolver: ResolveOAuth2Token = createOAuth2TokenResolver();
