// The load engine's HTTP client: undici with keep-alive pools (one per
// origin, shared by a run's VUs, as k6 shares its transport), under the
// outbound policy: every new connection resolves through the SSRF guard's
// lookup, and each redirect hop's URL is checked again. Answers what k6's
// Response carries, with k6's error codes for failures.
//
// It is on the hot path of a load test (tens of thousands of requests a
// second), so it talks to undici's dispatcher directly (no Readable body
// stream, no per-request AbortSignal listener), and remembers what it worked
// out about a URL (parsed parts, policy verdict) for the next request to it.
import { brotliDecompressSync, gunzipSync, inflateSync, type InputType } from "node:zlib";
import { Agent, type Dispatcher, errors as undiciErrors } from "undici";
import { assertAllowedTarget, BlockedTargetError, lookupFor, type PrivatePolicy } from "@/server/lib/ssrf";
import { parseDuration } from "../duration";
import type { HostRequest, HostResponse } from "./isolate/http";

/** A body in the codings the server listed (applied in order, so undone in reverse), capped like an uncompressed one. */
function decodeBody(wire: InputType, coding: string): Buffer {
  let buf = wire as Buffer;
  for (const c of coding.split(",").map((x) => x.trim()).reverse()) {
    const opts = { maxOutputLength: MAX_LOAD_RESPONSE_BYTES };
    if (c === "gzip" || c === "x-gzip") buf = gunzipSync(buf, opts);
    else if (c === "deflate") buf = inflateSync(buf, opts);
    else if (c === "br") buf = brotliDecompressSync(buf, opts);
    else if (c !== "identity") throw new Error(`unknown content coding "${c}"`);
  }
  return buf;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_REDIRECTS = 10;
/** Bodies beyond this are cut (and the response marked with an error), so a VU cannot exhaust the runner's memory. */
export const MAX_LOAD_RESPONSE_BYTES = 10 * 1024 * 1024;
const USER_AGENT = "polymock-load/1 (k6 compatible)";
/** URLs whose parsing and policy verdict are remembered; a script with more distinct URLs just parses again. */
const TARGET_CACHE_SIZE = 2048;

/** k6's error codes (https://grafana.com/docs/k6/latest/javascript-api/error-codes/). */
const ERROR_CODES = { generic: 1000, requestTimeout: 1050, dns: 1100, tcp: 1200, refused: 1212, reset: 1220, tls: 1300, redirects: 1400, blocked: 1000 };

const canonicalNames = new Map<string, string>();
/** content-type → Content-Type, as Go's net/http (and so k6) presents header names. */
function canonical(name: string): string {
  let c = canonicalNames.get(name);
  if (c === undefined) {
    c = name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, ch: string) => dash + ch.toUpperCase());
    if (canonicalNames.size < 4096) canonicalNames.set(name, c);
  }
  return c;
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

/** What a URL comes to: where to dial, what to send, or why it may not be requested. */
interface Target {
  url: URL;
  href: string;
  origin: string;
  /** The origin dialled (differs from `origin` under the `hosts` option). */
  dialOrigin: string;
  path: string;
  /** Host header to add when `hosts` redirected the dial. */
  hostHeader?: string;
  remoteIp: string;
  remotePort: number;
  /** Basic auth from credentials in the URL (`http://user:pass@host/`). */
  credentials?: string;
  /** Set when the policy refuses the URL. */
  blocked?: string;
}

/** One request's bytes, for its data_sent/data_received samples (the client's totals count every request at once). */
export interface SendMeter {
  sent: number;
  received: number;
}

class RequestAborted extends Error {
  override name = "AbortError";
}

/** One request/response exchange as undici's dispatcher drives it (its handler interface). */
class Exchange implements Dispatcher.DispatchHandler {
  status = 0;
  rawHeaders: Buffer[] = [];
  chunks: Buffer[] = [];
  size = 0;
  headersAt = 0;
  cut = false;
  #abort: ((err: Error) => void) | undefined;
  #aborted: Error | undefined;
  constructor(
    readonly done: (x: Exchange, err?: unknown) => void,
    readonly keepBody: boolean,
  ) {}

  abort(err: Error) {
    this.#aborted = err;
    this.#abort?.(err);
  }

  onConnect(abort: (err?: Error) => void) {
    this.#abort = abort;
    if (this.#aborted) abort(this.#aborted);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]) {
    // 1xx informational answers come before the real one.
    if (statusCode < 200) return true;
    this.status = statusCode;
    this.rawHeaders = rawHeaders;
    this.headersAt = performance.now();
    return true;
  }

  onData(chunk: Buffer) {
    this.size += chunk.length;
    if (this.size > MAX_LOAD_RESPONSE_BYTES) {
      this.cut = true;
      this.#abort?.(new Error("cut"));
      return false;
    }
    if (this.keepBody) this.chunks.push(chunk);
    return true;
  }

  onComplete() {
    this.done(this);
  }

  onError(err: Error) {
    this.done(this, this.cut ? undefined : err);
  }
}

export class LoadHttpClient {
  readonly #agent: Agent;
  readonly #policy: PrivatePolicy;
  readonly #hosts: Map<string, { host: string; port?: string }>;
  readonly #targets = new Map<string, Target>();
  /** In-flight exchanges by the signal that stops them (the run's): one listener per signal, not one per request. */
  readonly #inFlight = new Map<AbortSignal, Set<Exchange>>();
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

  async send(req: HostRequest, signal?: AbortSignal, meter?: SendMeter): Promise<HostResponse> {
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
    let target = this.#target(req.url);
    if (!target) return failure(req.url, `invalid URL "${req.url}"`, ERROR_CODES.generic);
    // Credentials in the URL are basic auth, as in k6; they are not sent on to a redirect's other origin.
    const credentials = target.credentials;
    const firstOrigin = target.origin;
    const body = req.body === undefined ? undefined : Buffer.from(req.body, "latin1");
    let method = req.method;
    let sendBody = body;
    const given = req.headers;
    let hasHost = false;
    let hasAuthorization = false;
    let hasUserAgent = false;
    let givenBytes = 0;
    for (const k in given) {
      const lower = k.toLowerCase();
      if (lower === "host") hasHost = true;
      else if (lower === "authorization") hasAuthorization = true;
      else if (lower === "user-agent") hasUserAgent = true;
      givenBytes += k.length + given[k].length + 4;
    }
    for (let hop = 0; ; hop++) {
      if (target.blocked) return failure(target.href, target.blocked, ERROR_CODES.blocked);
      // undici's flat header list: [name, value, name, value, …].
      const headers: string[] = hasUserAgent ? [] : ["user-agent", USER_AGENT];
      for (const k in given) headers.push(k, given[k]);
      let headerBytes = givenBytes + (hasUserAgent ? 0 : 10 + USER_AGENT.length + 4);
      if (target.hostHeader && !hasHost) {
        headers.push("host", target.hostHeader);
        headerBytes += 8 + target.hostHeader.length;
      }
      if (credentials && target.origin === firstOrigin && !hasAuthorization) {
        headers.push("authorization", credentials);
        headerBytes += 17 + credentials.length;
      }
      const hopStart = performance.now();
      const ex = await this.#exchange(target, method, headers, sendBody, timeoutMs, req.responseType !== "none", signal);
      if (!ex.ok) {
        const c = classify(ex.error);
        const t = emptyTimings();
        t.duration = performance.now() - started;
        return failure(target.href, c.message, c.code, t);
      }
      const x = ex.exchange;
      const sent = (sendBody?.length ?? 0) + target.path.length + 64 + headerBytes;
      this.bytesSent += sent;
      if (meter) meter.sent += sent;
      const out: Record<string, string> = {};
      let receivedHeaderBytes = 17;
      let location: string | undefined;
      const raw = x.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const name = canonical(raw[i].toString("latin1"));
        const value = raw[i + 1].toString("latin1");
        out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
        receivedHeaderBytes += name.length + value.length + 4;
        if (location === undefined && name === "Location") location = value;
      }
      if (x.status >= 300 && x.status < 400 && location && hop < maxRedirects) {
        let next: Target | undefined;
        try {
          next = this.#target(new URL(location, target.url).href);
        } catch {
          next = undefined;
        }
        if (!next) return failure(target.href, `invalid redirect location "${location}"`, ERROR_CODES.generic);
        target = next;
        if (x.status === 303 || ((x.status === 301 || x.status === 302) && method === "POST")) {
          method = "GET";
          sendBody = undefined;
        }
        continue;
      }
      let text: string | null = null;
      let error = "";
      let errorCode = 0;
      if (x.cut) {
        error = `response body over ${MAX_LOAD_RESPONSE_BYTES} bytes: cut`;
        errorCode = ERROR_CODES.generic;
      }
      if (req.responseType !== "none") {
        const wire = x.chunks.length === 1 ? x.chunks[0] : Buffer.concat(x.chunks);
        this.bytesReceived += wire.length;
        if (meter) meter.received += wire.length;
        // data_received counts the bytes on the wire; the script sees the body decoded, as k6 gives it.
        let buf = wire;
        const coding = out["Content-Encoding"]?.trim().toLowerCase();
        if (coding && coding !== "identity" && wire.length > 0) {
          try {
            buf = decodeBody(wire, coding);
          } catch (e) {
            error ||= `response body not decodable as ${coding}: ${(e as Error).message}`;
            errorCode ||= ERROR_CODES.generic;
          }
        }
        text = req.responseType === "binary" ? buf.toString("base64") : buf.toString("utf8");
      }
      const done = performance.now();
      this.bytesReceived += receivedHeaderBytes;
      if (meter) meter.received += receivedHeaderBytes;
      const waiting = x.headersAt - hopStart;
      const receiving = done - x.headersAt;
      return {
        status: x.status,
        statusText: `${x.status}`,
        url: target.href,
        proto: "HTTP/1.1",
        headers: out,
        body: text,
        timings: { blocked: 0, connecting: 0, tls_handshaking: 0, sending: 0, waiting, receiving, duration: waiting + receiving },
        error,
        errorCode,
        remoteIp: target.remoteIp,
        remotePort: target.remotePort,
      };
    }
  }

  #exchange(target: Target, method: string, headers: string[], body: Buffer | undefined, timeoutMs: number, keepBody: boolean, signal: AbortSignal | undefined): Promise<{ ok: true; exchange: Exchange } | { ok: false; error: unknown }> {
    return new Promise((resolve) => {
      let live: Set<Exchange> | undefined;
      const ex = new Exchange((x, err) => {
        live?.delete(x);
        resolve(err === undefined ? { ok: true, exchange: x } : { ok: false, error: err });
      }, keepBody);
      if (signal) {
        if (signal.aborted) return resolve({ ok: false, error: new RequestAborted("the run stopped") });
        live = this.#inFlight.get(signal);
        if (!live) {
          const set = new Set<Exchange>();
          live = set;
          this.#inFlight.set(signal, set);
          signal.addEventListener("abort", () => {
            for (const x of set) x.abort(new RequestAborted("the run stopped"));
            this.#inFlight.delete(signal);
          }, { once: true });
        }
        live.add(ex);
      }
      try {
        this.#agent.dispatch({ origin: target.dialOrigin, path: target.path, method, headers, body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }, ex);
      } catch (e) {
        live?.delete(ex);
        resolve({ ok: false, error: e });
      }
    });
  }

  /** The URL parsed and judged by the policy, from the cache when it was seen before; undefined when it is not a URL. */
  #target(href: string): Target | undefined {
    const known = this.#targets.get(href);
    if (known) return known;
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return undefined;
    }
    let credentials: string | undefined;
    if (url.username || url.password) {
      credentials = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
      url.username = "";
      url.password = "";
    }
    const dial = this.#dialled(url);
    let blocked: string | undefined;
    try {
      assertAllowedTarget(dial, this.#policy);
    } catch (e) {
      blocked = classify(e).message;
    }
    const target: Target = {
      url,
      href: url.href,
      origin: url.origin,
      dialOrigin: dial.origin,
      path: url.pathname + url.search,
      hostHeader: dial !== url ? url.host : undefined,
      remoteIp: url.hostname,
      remotePort: Number(url.port) || (url.protocol === "https:" ? 443 : 80),
      credentials,
      blocked,
    };
    if (this.#targets.size >= TARGET_CACHE_SIZE) this.#targets.clear();
    this.#targets.set(href, target);
    return target;
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
