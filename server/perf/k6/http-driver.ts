// The load engine's HTTP client: undici with keep-alive pools (one per
// origin, shared by a run's VUs, as k6 shares its transport), under the
// outbound policy: every new connection resolves through the SSRF guard's
// lookup, and each redirect hop's URL is checked again. Answers what k6's
// Response carries, with k6's error codes for failures.
import { Agent, errors as undiciErrors } from "undici";
import { assertAllowedTarget, BlockedTargetError, lookupFor, type PrivatePolicy } from "@/server/lib/ssrf";
import { parseDuration } from "../duration";
import type { HostRequest, HostResponse } from "./isolate/http";

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_REDIRECTS = 10;
/** Bodies beyond this are cut (and the response marked with an error), so a VU cannot exhaust the runner's memory. */
export const MAX_LOAD_RESPONSE_BYTES = 10 * 1024 * 1024;

/** k6's error codes (https://grafana.com/docs/k6/latest/javascript-api/error-codes/). */
const ERROR_CODES = { generic: 1000, requestTimeout: 1050, dns: 1100, tcp: 1200, refused: 1212, reset: 1220, tls: 1300, redirects: 1400, blocked: 1000 };

function canonical(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

function emptyTimings() {
  return { blocked: 0, connecting: 0, tls_handshaking: 0, sending: 0, waiting: 0, receiving: 0, duration: 0 };
}

function failure(url: string, message: string, code: number, timings = emptyTimings()): HostResponse {
  return { status: 0, statusText: "", url, proto: "", headers: {}, body: null, timings, error: message, errorCode: code, remoteIp: "", remotePort: 0 };
}

function classify(err: unknown): { message: string; code: number } {
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const cause = e?.cause ?? e;
  if (err instanceof BlockedTargetError || cause instanceof BlockedTargetError) return { message: (cause as Error).message, code: ERROR_CODES.blocked };
  if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError || (err as Error)?.name === "AbortError" || (err as Error)?.name === "TimeoutError") {
    return { message: "request timeout", code: ERROR_CODES.requestTimeout };
  }
  switch (cause?.code) {
    case "ECONNREFUSED":
      return { message: `dial tcp: connect: connection refused`, code: ERROR_CODES.refused };
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return { message: "connection reset by peer", code: ERROR_CODES.reset };
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return { message: `lookup ${(cause as { hostname?: string }).hostname ?? ""}: no such host`, code: ERROR_CODES.dns };
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return { message: "dial tcp: i/o timeout", code: ERROR_CODES.tcp };
  }
  if (/certificate|SSL|TLS/i.test(cause?.message ?? "")) return { message: `tls: ${cause?.message}`, code: ERROR_CODES.tls };
  return { message: cause?.message ?? String(err), code: ERROR_CODES.generic };
}

export class LoadHttpClient {
  readonly #agent: Agent;
  readonly #policy: PrivatePolicy;
  readonly #hosts: Map<string, { host: string; port?: string }>;
  /** Bytes as they crossed the wire (approximately: headers as sent, bodies as read), for data_sent/data_received. */
  bytesSent = 0;
  bytesReceived = 0;

  /**
   * `hosts` is k6's option of that name: a hostname answered by another
   * address ("10.0.0.5" or "10.0.0.5:8443"), as /etc/hosts would; the request
   * keeps its Host header (and TLS server name), and the policy checks the
   * address actually dialled.
   */
  readonly #maxRedirects: number;

  constructor(opts: { privatePolicy?: PrivatePolicy; insecureSkipTLSVerify?: boolean; hosts?: Record<string, string>; maxRedirects?: number } = {}) {
    this.#policy = opts.privatePolicy ?? "env";
    this.#maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    this.#hosts = new Map(
      Object.entries(opts.hosts ?? {}).map(([name, to]) => {
        const m = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(to.trim());
        return [name.toLowerCase(), { host: m?.[1] ?? to, port: m?.[2] }];
      }),
    );
    this.#agent = new Agent({
      keepAliveTimeout: 30_000,
      connections: null,
      connect: { lookup: lookupFor(this.#policy), rejectUnauthorized: !opts.insecureSkipTLSVerify },
    });
  }

  async send(req: HostRequest, signal?: AbortSignal): Promise<HostResponse> {
    let timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS;
    if (req.timeout !== undefined) {
      try {
        timeoutMs = parseDuration(req.timeout);
      } catch {
        return failure(req.url, `invalid timeout ${JSON.stringify(req.timeout)}`, ERROR_CODES.generic);
      }
    }
    const maxRedirects = req.redirects ?? this.#maxRedirects;
    const started = performance.now();
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return failure(req.url, `invalid URL "${req.url}"`, ERROR_CODES.generic);
    }
    // Credentials in the URL are basic auth, as in k6 (`http://user:pass@host/`); they are not sent on to a redirect's other origin.
    let credentials: string | undefined;
    if (url.username || url.password) {
      credentials = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
      url.username = "";
      url.password = "";
    }
    const firstOrigin = url.origin;
    const body = req.body === undefined ? undefined : Buffer.from(req.body, "latin1");
    let method = req.method;
    let sendBody = body;
    // undici's own header/body timeouts, not AbortSignal.timeout + AbortSignal.any per request:
    // composite signals tied to the run's long-lived stop signal pile up (Node 20) and cost more than the request.
    for (let hop = 0; ; hop++) {
      const dial = this.#dialled(url);
      try {
        assertAllowedTarget(dial, this.#policy);
      } catch (e) {
        return failure(url.href, classify(e).message, ERROR_CODES.blocked);
      }
      const headers: Record<string, string> = { "user-agent": "polymock-load/1 (k6 compatible)", ...req.headers };
      if (dial !== url && !Object.keys(headers).some((k) => k.toLowerCase() === "host")) headers.host = url.host;
      if (credentials && url.origin === firstOrigin && !Object.keys(headers).some((k) => k.toLowerCase() === "authorization")) headers.authorization = credentials;
      const hopStart = performance.now();
      let res;
      try {
        res = await this.#agent.request({ origin: dial.origin, path: url.pathname + url.search, method, headers, body: sendBody, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      } catch (e) {
        const c = classify(e);
        const t = emptyTimings();
        t.duration = performance.now() - started;
        return failure(url.href, c.message, c.code, t);
      }
      const headersAt = performance.now();
      this.bytesSent += (sendBody?.length ?? 0) + url.pathname.length + url.search.length + 64 + Object.entries(headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 0);
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && location && hop < maxRedirects) {
        await res.body.dump();
        url = new URL(Array.isArray(location) ? location[0] : location, url);
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === "POST")) {
          method = "GET";
          sendBody = undefined;
        }
        continue;
      }
      let text: string | null = null;
      let error = "";
      let errorCode = 0;
      try {
        if (req.responseType === "none") await res.body.dump();
        else {
          const chunks: Buffer[] = [];
          let size = 0;
          for await (const chunk of res.body) {
            size += (chunk as Buffer).length;
            if (size > MAX_LOAD_RESPONSE_BYTES) {
              error = `response body over ${MAX_LOAD_RESPONSE_BYTES} bytes: cut`;
              errorCode = ERROR_CODES.generic;
              res.body.destroy();
              break;
            }
            chunks.push(chunk as Buffer);
          }
          const buf = Buffer.concat(chunks);
          this.bytesReceived += buf.length;
          text = req.responseType === "binary" ? buf.toString("base64") : buf.toString("utf8");
        }
      } catch (e) {
        const c = classify(e);
        error = c.message;
        errorCode = c.code;
      }
      const done = performance.now();
      const out: Record<string, string> = {};
      let headerBytes = 17;
      for (const [k, v] of Object.entries(res.headers)) {
        const value = Array.isArray(v) ? v.join(", ") : String(v ?? "");
        out[canonical(k)] = value;
        headerBytes += k.length + value.length + 4;
      }
      this.bytesReceived += headerBytes;
      const waiting = headersAt - hopStart;
      const receiving = done - headersAt;
      return {
        status: res.statusCode,
        statusText: `${res.statusCode}`,
        url: url.href,
        proto: "HTTP/1.1",
        headers: out,
        body: text,
        timings: { blocked: 0, connecting: 0, tls_handshaking: 0, sending: 0, waiting, receiving, duration: waiting + receiving },
        error,
        errorCode,
        remoteIp: url.hostname,
        remotePort: Number(url.port) || (url.protocol === "https:" ? 443 : 80),
      };
    }
  }

  /** The URL whose address is dialled: `url` itself, or its host mapped by `hosts`. */
  #dialled(url: URL): URL {
    // "name:port" keys (k6 accepts them) before bare names, so http and https of one host can go to two places.
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    const to = this.#hosts.get(`${url.hostname.toLowerCase()}:${port}`) ?? this.#hosts.get(url.hostname.toLowerCase());
    if (!to) return url;
    const dial = new URL(url.href);
    dial.hostname = to.host;
    if (to.port) dial.port = to.port;
    return dial;
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}
