// The load engine's HTTP client: k6's request semantics (redirects, the
// `hosts` option, credentials in URLs, timeouts, decoding, error codes) over
// the keep-alive pools of wire-client.ts (one per dialled origin, shared by a
// run's VUs, as k6 shares its transport), under the outbound policy: every
// new connection resolves through the SSRF guard's lookup, and each redirect
// hop's URL is checked again. Answers what k6's Response carries.
//
// It is on the hot path of a load test (tens of thousands of requests a
// second): no per-request AbortSignal listener, and it remembers what it
// worked out about a URL (parsed parts, policy verdict, pool) for the next
// request to it.
import net from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync, type InputType } from "node:zlib";
import { assertAllowedTarget, BlockedTargetError, lookupFor, type PrivatePolicy } from "@/server/lib/ssrf";
import { parseDuration } from "../duration";
import type { HostRequest, HostResponse } from "./isolate/http";
import { WireClient, WireExchange, type WireOrigin } from "./wire-client";

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
const USER_AGENT_LINE = "User-Agent: polymock-load/1 (k6 compatible)\r\n";
/** An HTTP token: what a method or a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a header value may not contain (it would end the field, or the head). */
const BAD_VALUE = /[\r\n\0]/;
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
  if ((err as Error)?.name === "AbortError" || (err as Error)?.name === "TimeoutError") {
    return { message: "request timeout", code: ERROR_CODES.requestTimeout };
  }
  switch (cause?.code) {
    case "ECONNREFUSED":
      return { message: `dial tcp: connect: connection refused`, code: ERROR_CODES.refused };
    case "ECONNRESET":
    case "EPIPE":
      return { message: "connection reset by peer", code: ERROR_CODES.reset };
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return { message: `lookup ${(cause as { hostname?: string }).hostname ?? ""}: no such host`, code: ERROR_CODES.dns };
    case "ETIMEDOUT":
      return { message: "dial tcp: i/o timeout", code: ERROR_CODES.tcp };
  }
  const code = cause?.code ?? "";
  if (code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_") || /CERT/.test(code) || /certificate|SSL|TLS/i.test(cause?.message ?? "")) {
    return { message: `tls: ${cause?.message}`, code: ERROR_CODES.tls };
  }
  return { message: cause?.message ?? String(err), code: ERROR_CODES.generic };
}

/** What a URL comes to: where to dial, what to send, or why it may not be requested. */
interface Target {
  url: URL;
  href: string;
  origin: string;
  /** Where its connections go (elsewhere than `origin` under the `hosts` option). */
  wire: WireOrigin;
  path: string;
  /** The Host header: the URL's host, also when `hosts` redirected the dial. */
  host: string;
  remoteIp: string;
  remotePort: number;
  /** Basic auth from credentials in the URL (`http://user:pass@host/`). */
  credentials?: string;
  /** Set when the policy refuses the URL. */
  blocked?: string;
  /** The request bytes of the last request to it with no headers or body of the script's (`http.get(url)`), by method: shared, never written to. */
  bare?: { method: string; bytes: Buffer };
}

/** One request's bytes, for its data_sent/data_received samples (the client's totals count every request at once). */
export interface SendMeter {
  sent: number;
  received: number;
  /**
   * The redirect hops followed before the last, each with its method and
   * its own bytes (which `sent`/`received` then leave out): k6 records every
   * hop as a request of its own, the response the script gets being the
   * last one's. Made only when there is a redirect.
   */
  hops?: { res: HostResponse; method: string; sent: number; received: number }[];
  /** The last hop's method, when a redirect changed it (a 303, or a 301/302 after a POST, is followed with a GET). */
  method?: string;
}

/** A hop's bytes into the request's own. */
function countInto(meter: SendMeter | undefined, x: WireExchange) {
  if (meter) {
    meter.sent += x.bytesOut;
    meter.received += x.bytesIn;
  }
}

/** What a hop's exchange answered, as k6's Response carries it: k6's phases, the dial's inside `blocked`, and duration = sending + waiting + receiving. */
function answered(x: WireExchange, target: Target, headers: Record<string, string>, body: string | null, error: string, errorCode: number): HostResponse {
  const sending = x.sentAt - x.readyAt;
  const waiting = x.firstByteAt - x.sentAt;
  const receiving = x.endAt - x.firstByteAt;
  return {
    status: x.status,
    statusText: `${x.status}`,
    url: target.href,
    proto: `HTTP/${x.version}`,
    headers,
    body,
    timings: {
      blocked: x.readyAt - x.startAt,
      connecting: x.dialAt === 0 ? 0 : x.connectedAt - (x.lookedUpAt || x.dialAt),
      tls_handshaking: x.secureAt === 0 ? 0 : x.secureAt - x.connectedAt,
      sending,
      waiting,
      receiving,
      duration: sending + waiting + receiving,
    },
    error,
    errorCode,
    remoteIp: x.remoteAddress || target.remoteIp,
    remotePort: x.remotePort || target.remotePort,
  };
}

class RequestAborted extends Error {
  override name = "AbortError";
}

export class LoadHttpClient {
  readonly #wire: WireClient;
  readonly #policy: PrivatePolicy;
  readonly #hosts: Map<string, { host: string; port?: string }>;
  readonly #targets = new Map<string, Target>();
  /** In-flight exchanges by the signal that stops them (the run's): one listener per signal, not one per request. */
  readonly #inFlight = new Map<AbortSignal, Set<WireExchange>>();
  /** Bytes as they crossed the wire (request and answer heads and bodies, redirect hops included), for data_sent/data_received. */
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
    this.#wire = new WireClient({ lookup: lookupFor(this.#policy), rejectUnauthorized: !opts.insecureSkipTLSVerify });
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
    let method = req.method;
    if (!TOKEN.test(method)) return failure(req.url, `invalid method ${JSON.stringify(method)}`, ERROR_CODES.generic);
    // Credentials in the URL are basic auth, as in k6; they (and a Host header the script set) are not sent on to a redirect's other origin.
    const credentials = target.credentials;
    const firstOrigin = target.origin;
    let body = req.body;
    // The script's headers as head lines, checked once for every hop.
    const given = req.headers;
    let lines = "";
    let givenHost: string | undefined;
    let givenLength: string | undefined;
    let hasAuthorization = false;
    let hasUserAgent = false;
    let idempotencyKey = false;
    for (const k in given) {
      const v = given[k];
      if (!TOKEN.test(k)) return failure(req.url, `invalid header name ${JSON.stringify(k)}`, ERROR_CODES.generic);
      if (BAD_VALUE.test(v)) return failure(req.url, `invalid value for header ${k}: it may not contain CR, LF or NUL`, ERROR_CODES.generic);
      const n = k.length;
      const lower = n === 4 || n === 10 || n === 13 || n === 14 || n === 15 || n === 17 ? k.toLowerCase() : "";
      if (lower === "idempotency-key" || lower === "x-idempotency-key") idempotencyKey = true;
      if (lower === "host") {
        givenHost = v;
        continue;
      }
      if (lower === "content-length") {
        givenLength = v.trim();
        continue;
      }
      if (lower === "transfer-encoding") return failure(req.url, "the Transfer-Encoding header cannot be set: bodies are sent with a Content-Length", ERROR_CODES.generic);
      if (lower === "authorization") hasAuthorization = true;
      else if (lower === "user-agent") hasUserAgent = true;
      lines += `${k}: ${v}\r\n`;
    }
    const plain = lines === "" && givenHost === undefined && givenLength === undefined;
    const live = signal && !signal.aborted ? this.#live(signal) : undefined;
    for (let hop = 0; ; hop++) {
      if (target.blocked) return failure(target.href, target.blocked, ERROR_CODES.blocked);
      // A stopped run sends nothing more (its requests count as timed out, as k6 counts a cancelled one).
      if (signal?.aborted) return failure(target.href, "request timeout", ERROR_CODES.requestTimeout);
      const length = body === undefined ? 0 : body.length;
      if (givenLength !== undefined && givenLength !== String(length)) {
        return failure(target.href, `the Content-Length header (${givenLength}) does not match the body's ${length} bytes`, ERROR_CODES.generic);
      }
      // The first hop of a request with nothing of the script's but method and URL: its bytes are the same every time.
      const reusable = hop === 0 && plain && body === undefined;
      let bytes: Buffer;
      if (reusable && target.bare !== undefined && target.bare.method === method) bytes = target.bare.bytes;
      else {
        const sameOrigin = target.origin === firstOrigin;
        let head = `${method} ${target.path} HTTP/1.1\r\nHost: ${givenHost !== undefined && sameOrigin ? givenHost : target.host}\r\n`;
        if (!hasUserAgent) head += USER_AGENT_LINE;
        head += lines;
        if (credentials && sameOrigin && !hasAuthorization) head += `Authorization: ${credentials}\r\n`;
        if (body !== undefined || givenLength !== undefined || method === "POST" || method === "PUT" || method === "PATCH") head += `Content-Length: ${length}\r\n`;
        head += "\r\n";
        // Header values and the body are byte strings (latin1), as the isolate hands them over.
        bytes = Buffer.allocUnsafe(head.length + length);
        bytes.write(head, 0, "latin1");
        if (body !== undefined) bytes.write(body, head.length, "latin1");
        if (reusable) target.bare = { method, bytes };
      }
      const replayable = idempotencyKey || method === "GET" || method === "HEAD" || method === "OPTIONS" || method === "TRACE";
      const x = new WireExchange(bytes, method === "HEAD", req.responseType !== "none", timeoutMs, MAX_LOAD_RESPONSE_BYTES, replayable);
      live?.add(x);
      await this.#wire.send(target.wire, x);
      live?.delete(x);
      this.bytesSent += x.bytesOut;
      this.bytesReceived += x.bytesIn;
      if (x.error) {
        countInto(meter, x);
        const c = classify(x.error);
        const t = emptyTimings();
        t.duration = performance.now() - started;
        return failure(target.href, c.message, c.code, t);
      }
      const out: Record<string, string> = {};
      let location: string | undefined;
      const raw = x.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const name = canonical(raw[i]);
        const value = raw[i + 1];
        out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
        if (location === undefined && name === "Location") location = value;
      }
      if (x.status >= 300 && x.status < 400 && location && hop < maxRedirects) {
        let next: Target | undefined;
        try {
          next = this.#target(new URL(location, target.url).href);
        } catch {
          next = undefined;
        }
        if (!next) {
          countInto(meter, x);
          return failure(target.href, `invalid redirect location "${location}"`, ERROR_CODES.generic);
        }
        if (meter) (meter.hops ??= []).push({ res: answered(x, target, out, null, "", 0), method, sent: x.bytesOut, received: x.bytesIn });
        target = next;
        if (x.status === 303 || ((x.status === 301 || x.status === 302) && method === "POST")) {
          method = "GET";
          if (meter) meter.method = method;
          body = undefined;
          givenLength = undefined;
        }
        continue;
      }
      countInto(meter, x);
      let text: string | null = null;
      let error = "";
      let errorCode = 0;
      if (x.cut) {
        error = `response body over ${MAX_LOAD_RESPONSE_BYTES} bytes: cut`;
        errorCode = ERROR_CODES.generic;
      }
      if (req.responseType !== "none") {
        const wire = x.chunks.length === 1 ? x.chunks[0] : Buffer.concat(x.chunks);
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
      return answered(x, target, out, text, error, errorCode);
    }
  }

  /** The exchanges in flight under `signal` (the run's), which its one listener ends at once when it aborts. */
  #live(signal: AbortSignal): Set<WireExchange> {
    let live = this.#inFlight.get(signal);
    if (!live) {
      const set = new Set<WireExchange>();
      live = set;
      this.#inFlight.set(signal, set);
      signal.addEventListener("abort", () => {
        const stopped = new RequestAborted("the run stopped");
        for (const e of set) this.#wire.abort(e, stopped);
        this.#inFlight.delete(signal);
      }, { once: true });
    }
    return live;
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
    const secure = url.protocol === "https:";
    const dialHost = dial.hostname.replace(/^\[|\]$/g, "");
    const dialPort = Number(dial.port) || (secure ? 443 : 80);
    const nameHost = url.hostname.replace(/^\[|\]$/g, "");
    const servername = secure && net.isIP(nameHost) === 0 ? nameHost : undefined;
    const target: Target = {
      url,
      href: url.href,
      origin: url.origin,
      // One pool per address dialled and, for TLS, per server name: a connection is never reused for another certificate's name.
      wire: { key: `${secure ? "https" : "http"} ${dialHost} ${dialPort} ${servername ?? ""}`, host: dialHost, port: dialPort, tls: secure, servername },
      path: url.pathname + url.search,
      host: url.host,
      remoteIp: url.hostname,
      remotePort: Number(url.port) || (secure ? 443 : 80),
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
    this.#wire.close();
  }
}
