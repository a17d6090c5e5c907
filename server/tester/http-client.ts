// The API tester's outbound HTTP client: sends a PreparedRequest and returns
// what came back with Postman's timing breakdown, cookies and redirect chain.
// node:http rather than fetch, because only the socket's own events time DNS,
// connect and TLS separately. Redirects are followed here, hop by hop, so
// every hop goes through the outbound policy again (server/lib/ssrf.ts: a
// public URL redirecting to the cloud-metadata address must fail) and through
// the cookie jar. Rules where the spec is silent: docs/decisions.md, "API
// tester: sending requests".
import { STATUS_CODES } from "node:http";
import type { CookieJar } from "tough-cookie";
import { MAX_RESPONSE_BODY_BYTES, type ExecutedResponse } from "@/server/contracts/tester-execution";
import { assertAllowedTarget, lookupFor, type PrivatePolicy } from "@/server/lib/ssrf";
import { ConnectionPool } from "./connection-pool";
import { Cancellation, openHop, type OpenedHop } from "./http-hop";
import { withoutHeaders, type HeaderEntry, type PreparedRequest } from "./prepared-request";
import { encodeBody, readBody } from "./response-body";
import { mergeCookies, parseSetCookies } from "./response-cookies";
import { SendError, toSendError } from "./send-error";

export { SendError, type SendErrorCode } from "./send-error";
export { ConnectionPool } from "./connection-pool";

export interface SendOptions {
  signal?: AbortSignal;
  cookieJar?: CookieJar;
  /** Keep-alive connections shared by the requests of a run; without one, each send opens its own and closes them after. */
  agentPool?: ConnectionPool;
  maxBodyBytes?: number;
  /** "strict" refuses private and loopback targets whatever OUTBOUND_ALLOW_PRIVATE says. */
  privatePolicy?: PrivatePolicy;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials: not sent on to another origin (as curl does since CVE-2022-27776). */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie"];
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location", "transfer-encoding"];
/** A redirect's own body is read to the end (so its socket can be reused) only when it is this small. */
const DRAIN_LIMIT = 64 * 1024;

function checkTarget(url: URL, policy: PrivatePolicy): void {
  try {
    assertAllowedTarget(url, policy);
  } catch (err) {
    throw toSendError(err, url);
  }
}

function parseUrl(req: PreparedRequest): URL {
  try {
    const url = new URL(req.url);
    // No DNS name holds a brace; such a host is an unresolved `{{variable}}`.
    if (!/[{}]/.test(url.hostname)) return url;
  } catch {}
  const hint = req.unresolved.length ? ` Is ${req.unresolved.map((n) => `{{${n}}}`).join(", ")} defined in the environment?` : "";
  throw new SendError("invalid_url", `"${req.url}" is not a valid URL.${hint}`, { url: req.url });
}

async function withJarCookies(headers: HeaderEntry[], url: URL, jar: CookieJar | undefined): Promise<HeaderEntry[]> {
  if (!jar) return headers;
  const cookies = await jar.getCookieString(url.href);
  return cookies ? [...headers, { key: "Cookie", value: cookies }] : headers;
}

/** The fetch standard's rule: 303 turns anything but GET and HEAD into GET; 301 and 302 turn only POST into GET (as browsers do). */
function redirectedMethod(status: number, method: string): string {
  if (status === 303 && method !== "GET" && method !== "HEAD") return "GET";
  if ((status === 301 || status === 302) && method === "POST") return "GET";
  return method;
}

function drain(opened: OpenedHop): void {
  const { res } = opened;
  opened.release();
  const length = Number(res.headers["content-length"] ?? Number.NaN);
  if (res.complete || length <= DRAIN_LIMIT) res.resume();
  else res.destroy();
}

function headerSize(opened: OpenedHop, pairs: HeaderEntry[]): number {
  const { res } = opened;
  let n = Buffer.byteLength(`HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage ?? ""}\r\n\r\n`);
  for (const { key, value } of pairs) n += Buffer.byteLength(key) + Buffer.byteLength(value) + 4;
  return n;
}

function rawHeaderPairs(raw: string[]): HeaderEntry[] {
  const out: HeaderEntry[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ key: raw[i], value: raw[i + 1] });
  return out;
}

async function follow(req: PreparedRequest, opts: SendOptions, pool: ConnectionPool, cancel: Cancellation, started: number): Promise<ExecutedResponse> {
  const policy = opts.privatePolicy ?? "env";
  const maxBody = opts.maxBodyBytes ?? MAX_RESPONSE_BODY_BYTES;
  const { followRedirects, maxRedirects, verifyTls } = req.settings;
  let url = parseUrl(req);
  let method = req.method;
  let body = req.body;
  let headers = [...req.headers];
  const redirects: ExecutedResponse["redirects"] = [];
  const cookieLists: ExecutedResponse["cookies"][] = [];

  for (;;) {
    checkTarget(url, policy);
    const sent = await withJarCookies(headers, url, opts.cookieJar);
    cancel.throwIfCancelled();
    const opened = await openHop({ url, method, headers: sent, body, agent: pool.agentFor(url.protocol, verifyTls, policy), lookup: lookupFor(policy) }, cancel);
    const { res } = opened;
    const status = res.statusCode ?? 0;
    const setCookies = [res.headers["set-cookie"] ?? []].flat();
    cookieLists.push(parseSetCookies(setCookies, url));
    if (opts.cookieJar) for (const c of setCookies) await opts.cookieJar.setCookie(c, url.href, { ignoreError: true });

    const location = res.headers.location;
    if (followRedirects && REDIRECT_STATUSES.has(status) && location) {
      drain(opened);
      if (redirects.length >= maxRedirects) {
        throw new SendError("too_many_redirects", `Stopped after ${maxRedirects} redirects (the request's limit); the last one, from ${url.href}, pointed to ${location}.`, { url: url.href });
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new SendError("protocol", `${url.host} redirected to "${location}", which is not a valid URL.`, { url: url.href });
      }
      redirects.push({ status, url: url.href });
      const nextMethod = redirectedMethod(status, method);
      if (nextMethod !== method) {
        method = nextMethod;
        body = undefined;
        headers = withoutHeaders(headers, BODY_HEADERS);
      }
      if (next.origin !== url.origin) headers = withoutHeaders(headers, next.host === url.host ? CREDENTIAL_HEADERS : [...CREDENTIAL_HEADERS, "host"]);
      url = next;
      continue;
    }

    const read = await readBody(res, maxBody, (err) => cancel.reason ?? toSendError(err, url));
    const endAt = performance.now();
    opened.release();
    const pairs = rawHeaderPairs(res.rawHeaders);
    const { body: text, bodyEncoding } = encodeBody(read.bytes, res.headers["content-type"], read.truncated);
    return {
      status,
      statusText: res.statusMessage || STATUS_CODES[status] || "",
      headers: pairs,
      body: text,
      bodyEncoding,
      bodyTruncated: read.truncated,
      size: { headers: headerSize(opened, pairs), body: read.wireBytes },
      cookies: mergeCookies(cookieLists),
      timings: { ...opened.timings(endAt), totalMs: Math.round((endAt - started) * 1000) / 1000 },
      url: url.href,
      redirects,
      httpVersion: res.httpVersion,
      ...(opened.remoteAddress ? { remoteAddress: opened.remoteAddress } : {}),
    };
  }
}

/**
 * Sends `req` and reads the answer. Throws SendError, and only SendError.
 * `settings.timeoutMs` bounds the whole send: every redirect hop and the
 * download of the final body.
 */
export async function sendHttp(req: PreparedRequest, opts: SendOptions = {}): Promise<ExecutedResponse> {
  const started = performance.now();
  if (opts.signal?.aborted) throw new SendError("aborted", "The request was cancelled before it was sent.", { url: req.url });
  const cancel = new Cancellation();
  const pool = opts.agentPool ?? new ConnectionPool();
  const onAbort = () => cancel.cancel(new SendError("aborted", "The request was cancelled.", { url: req.url }));
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const timeoutMs = req.settings.timeoutMs;
  const timer = setTimeout(
    () => cancel.cancel(new SendError("timeout", `No complete answer within ${timeoutMs} ms (the request's timeout); raise it in the request's settings if the server is just slow.`, { url: req.url })),
    timeoutMs,
  );
  try {
    return await follow(req, opts, pool, cancel, started);
  } catch (err) {
    throw cancel.reason ?? toSendError(err, req.url);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
    if (!opts.agentPool) pool.close();
  }
}
