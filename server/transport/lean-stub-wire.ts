// Stub traffic without node:http's per-request objects. On this VM node:http
// spends more per request (IncomingMessage and ServerResponse with their
// streams, header checks, timers, ticks) than the serving core does
// (bench/experiments/lean-http-results.md): a keep-alive GET answered by a
// net socket writing one buffer runs about twice as fast as one answered
// through node:http. So the front takes each connection first and serves
// the requests it fully understands itself: HTTP/1.1 requests for /stubs/
// with no body or a Content-Length body, plain header lines and nothing that
// changes the connection (Upgrade, Expect, Transfer-Encoding, an h2c
// preface…). At the first request it does not take, it hands the connection
// (the bytes of that request onward included) to node:http, which keeps it
// from then on: node's parser answers malformed input, chunked bodies,
// WebSocket handshakes and everything not a stub, exactly as before. Only
// whole, well-formed messages are served here, so no request is ever framed
// two ways (no smuggling between the two parsers).
//
// The answers are node:http's bytes: the same status line, the stub's
// headers in order, then Date, Connection and Keep-Alive as node adds them;
// streamed (SSE) answers chunked.
import http from "node:http";
import type net from "node:net";
import { logger } from "@/server/lib/logger";
import { observeStub } from "@/server/observability/metrics";
import { isRequestId, newRequestId } from "@/server/http/request-meta";
import { stubBodyLimit } from "./stub-body";
import { serveStubNow } from "./stub-core";
import { dropFramingHeaders, type StubOutput } from "./stub-context";
import { isStubPath } from "./http-stub";
import { internalErrorBody } from "@/server/errors";

/** node:http's default header limit (http.maxHeaderSize): a larger head goes to node, which answers 431. */
const MAX_HEAD_BYTES = http.maxHeaderSize;
/** More header lines than this go to node:http (whose limit is 2,000 and which drops the rest). */
const MAX_HEADER_LINES = 100;
const CRLF2 = Buffer.from("\r\n\r\n");
/** The methods node's parser knows; it refuses any other with 400. */
const METHODS = new Set(http.METHODS);
const EMPTY = Buffer.alloc(0);

/** Header names node:http keeps the first of (IncomingMessage's matchKnownFields). */
const FIRST_WINS = new Set(["content-type", "content-length", "user-agent", "referer", "host", "authorization", "proxy-authorization", "if-modified-since", "if-unmodified-since", "from", "location", "max-forwards", "retry-after", "etag", "last-modified", "server", "age", "expires"]);

// RFC 9110 token characters, and the bytes a header value may hold (HTAB, visible ASCII, space, obs-text).
const TCHAR = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") TCHAR[c.charCodeAt(0)] = 1;
const VCHAR = new Uint8Array(256);
VCHAR[9] = 1;
for (let c = 0x20; c < 0x7f; c++) VCHAR[c] = 1;
for (let c = 0x80; c < 0x100; c++) VCHAR[c] = 1;

/** A request taken here: what serveStubNow needs, and how the connection goes on. */
interface LeanRequest {
  method: string;
  url: string;
  headers: Record<string, string[]>;
  body: Buffer;
  close: boolean;
}

/** The bytes at `buf[start..]`: a request served here, more bytes needed, or one for node:http. */
/** `need`: how many bytes from `start` the request takes in all, once its head is known. */
type Parsed = { kind: "request"; request: LeanRequest; end: number } | { kind: "partial"; need?: number } | { kind: "node" };

/**
 * The request starting at `start`, when it is one this layer serves whole;
 * "node" for anything else, however valid (node:http decides what it is).
 */
export function parseLeanRequest(buf: Buffer, start: number, bodyLimit: number): Parsed {
  const headEnd = buf.indexOf(CRLF2, start);
  if (headEnd < 0) return buf.length - start > MAX_HEAD_BYTES ? { kind: "node" } : { kind: "partial" };
  if (headEnd - start > MAX_HEAD_BYTES) return { kind: "node" };
  // Request line: METHOD SP /stubs… SP HTTP/1.1
  let i = start;
  while (i < headEnd && buf[i] >= 0x41 && buf[i] <= 0x5a) i++;
  if (i === start || i - start > 16 || buf[i] !== 0x20) return { kind: "node" };
  const method = buf.toString("latin1", start, i);
  if (!METHODS.has(method)) return { kind: "node" };
  const targetStart = ++i;
  while (i < headEnd && buf[i] > 0x20 && buf[i] < 0x7f) i++;
  if (buf[i] !== 0x20) return { kind: "node" };
  const url = buf.toString("latin1", targetStart, i);
  if (!url.startsWith("/stubs") || !isStubPath(url.split("?", 1)[0])) return { kind: "node" };
  if (buf.toString("latin1", i + 1, i + 11) !== "HTTP/1.1\r\n") return { kind: "node" };
  i += 11;

  const headers: Record<string, string[]> = {};
  let lines = 0;
  let length = -1;
  let close = false;
  let host = false;
  while (i < headEnd + 2) {
    if (++lines > MAX_HEADER_LINES) return { kind: "node" };
    const nameStart = i;
    while (TCHAR[buf[i]] === 1) i++;
    if (i === nameStart || buf[i] !== 0x3a) return { kind: "node" };
    const name = buf.toString("latin1", nameStart, i).toLowerCase();
    i++;
    while (buf[i] === 0x20 || buf[i] === 0x09) i++;
    const valueStart = i;
    while (VCHAR[buf[i]] === 1) i++;
    if (buf[i] !== 0x0d || buf[i + 1] !== 0x0a) return { kind: "node" };
    let valueEnd = i;
    while (valueEnd > valueStart && (buf[valueEnd - 1] === 0x20 || buf[valueEnd - 1] === 0x09)) valueEnd--;
    const value = buf.toString("latin1", valueStart, valueEnd);
    i += 2;
    switch (name) {
      case "content-length":
        // One plain length, within the stub limit (node answers 413 past it, and judges odd forms).
        if (length >= 0 || !/^\d{1,15}$/.test(value)) return { kind: "node" };
        length = Number(value);
        if (length > bodyLimit) return { kind: "node" };
        break;
      case "transfer-encoding":
      case "upgrade":
      case "expect":
      case "http2-settings":
        return { kind: "node" };
      case "connection": {
        const tokens = value.toLowerCase();
        if (tokens.includes("upgrade")) return { kind: "node" };
        if (/(^|[\s,])close($|[\s,])/.test(tokens)) close = true;
        break;
      }
      case "host":
        host = true;
        break;
    }
    const had = headers[name];
    if (had === undefined) headers[name] = [value];
    else if (name === "set-cookie") had.push(value);
    else if (!FIRST_WINS.has(name)) had[0] += (name === "cookie" ? "; " : ", ") + value;
  }
  // node:http answers an HTTP/1.1 request without Host with 400.
  if (!host) return { kind: "node" };
  const bodyStart = headEnd + 4;
  const size = length < 0 ? 0 : length;
  if (buf.length - bodyStart < size) return { kind: "partial", need: bodyStart - start + size };
  const body = size === 0 ? EMPTY : Buffer.from(buf.subarray(bodyStart, bodyStart + size));
  return { kind: "request", request: { method, url, headers, body, close }, end: bodyStart + size };
}

let dateSecond = -1;
let dateLine = "";
function dateHeader(): string {
  const now = Date.now();
  const s = Math.floor(now / 1000);
  if (s !== dateSecond) {
    dateSecond = s;
    dateLine = `Date: ${new Date(now).toUTCString()}\r\n`;
  }
  return dateLine;
}

class InvalidHeader extends Error {}

/** Status line and headers as node:http writes them for these headers (user headers in order, then Date, Connection, Keep-Alive). */
function responseHead(status: number, headers: Record<string, string | string[]>, extra: string, close: boolean, keepAliveSeconds: number, trailing = ""): { head: string; close: boolean } {
  let head = `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? "unknown"}\r\n`;
  let hasDate = false;
  let connection: string | undefined;
  let hasKeepAlive = false;
  for (const name in headers) {
    const v = headers[name];
    checkHeader(name, v);
    const lower = name.length === 4 || name.length === 10 ? name.toLowerCase() : "";
    if (lower === "date") hasDate = true;
    else if (lower === "connection") connection = String(v);
    else if (lower === "keep-alive") hasKeepAlive = true;
    if (typeof v === "string") head += `${name}: ${v}\r\n`;
    else for (const x of v) head += `${name}: ${x}\r\n`;
  }
  head += extra;
  if (!hasDate) head += dateHeader();
  if (connection !== undefined) {
    if (/close/i.test(connection)) close = true;
  } else if (close) head += "Connection: close\r\n";
  else {
    head += "Connection: keep-alive\r\n";
    if (!hasKeepAlive) head += `Keep-Alive: timeout=${keepAliveSeconds}\r\n`;
  }
  return { head: `${head}${trailing}\r\n`, close };
}

/** node:http refuses these (ERR_INVALID_HTTP_TOKEN, ERR_INVALID_CHAR) and the stub answers 500: the same here. */
function checkHeader(name: string, value: string | string[]) {
  for (let i = 0; i < name.length; i++) if (TCHAR[name.charCodeAt(i)] !== 1) throw new InvalidHeader(`Invalid header name ${JSON.stringify(name)}`);
  const values = typeof value === "string" ? [value] : value;
  for (const v of values) {
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c > 0xff || VCHAR[c] !== 1) throw new InvalidHeader(`Invalid character in header content ["${name}"]`);
    }
  }
}

interface Served {
  request: LeanRequest;
  requestId: string;
  started: number;
  output: StubOutput | Promise<StubOutput>;
}

/** One client connection while this layer has it. */
class LeanConnection {
  /** The start of a request not yet whole: its chunks as they came (a large body is joined once, not per chunk). */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The bytes the pending request needs in all (0 while its head is incomplete). */
  #need = 0;
  /** When the pending request began: a head must be whole within headersTimeout, a request within requestTimeout. */
  #pendingSince = 0;
  #drainWait = false;
  /** Answers in request order; the first is being written or awaited. */
  readonly #queue: Served[] = [];
  #busy = false;
  /** Bytes from a request node:http should take, held until the answers before it are out. */
  #forNode: Buffer | undefined;
  #closed = false;
  #ending = false;

  constructor(
    readonly socket: net.Socket,
    private readonly wire: LeanWire,
  ) {}

  start() {
    this.socket.setNoDelay(true);
    this.socket.on("data", this.#onData);
    this.socket.on("error", this.#onError);
    this.socket.on("close", this.#onClose);
    this.socket.on("end", this.#onEnd);
    this.socket.setTimeout(this.wire.server.keepAliveTimeout, this.#onTimeout);
  }

  get idle(): boolean {
    return this.#queue.length === 0 && !this.#busy && this.#pendingBytes === 0;
  }

  /** The server is closing: end now when idle, else after the answers in hand. */
  endWhenIdle() {
    this.#ending = true;
    if (this.idle) this.socket.end();
  }

  readonly #onError = () => {};

  /** The client is done sending (node:http's servers allow half-open sockets): answer what came, then end. */
  readonly #onEnd = () => this.endWhenIdle();

  readonly #onClose = () => {
    this.#closed = true;
    this.wire.connections.delete(this);
  };

  /** Idle past keepAliveTimeout, or a request that stopped coming: node:http ends both too. */
  readonly #onTimeout = () => {
    if (this.#queue.length === 0 && !this.#busy) this.socket.destroy();
  };

  readonly #onData = (chunk: Buffer) => {
    let buf = chunk;
    if (this.#pendingBytes > 0) {
      if (this.#tooSlow()) return void this.socket.destroy();
      this.#pending.push(chunk);
      this.#pendingBytes += chunk.length;
      if (this.#pendingBytes < this.#need) return;
      buf = Buffer.concat(this.#pending, this.#pendingBytes);
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#need = 0;
    }
    let at = 0;
    while (at < buf.length) {
      const parsed = parseLeanRequest(buf, at, stubBodyLimit());
      if (parsed.kind === "partial") {
        if (this.#pendingSince === 0 || at > 0 || buf === chunk) this.#pendingSince = performance.now();
        this.#pending = [buf.subarray(at)];
        this.#pendingBytes = buf.length - at;
        this.#need = parsed.need ?? 0;
        break;
      }
      this.#pendingSince = 0;
      if (parsed.kind === "node") {
        this.#handOff(buf.subarray(at));
        return;
      }
      at = parsed.end;
      this.#take(parsed.request);
      if (parsed.request.close) {
        // Nothing after a Connection: close request is read (as node:http does).
        this.socket.removeListener("data", this.#onData);
        break;
      }
    }
    this.#next();
  };

  /** A client sending a request slower than node:http would wait for it (slowloris): its head within headersTimeout, the whole within requestTimeout. */
  #tooSlow(): boolean {
    const waited = performance.now() - this.#pendingSince;
    const { headersTimeout, requestTimeout } = this.wire.server;
    return (this.#need === 0 && headersTimeout > 0 && waited > headersTimeout) || (requestTimeout > 0 && waited > requestTimeout);
  }

  /** From this request on the connection is node:http's, once the answers before it are written. */
  #handOff(rest: Buffer) {
    this.socket.removeListener("data", this.#onData);
    this.socket.pause();
    this.#forNode = rest;
    this.#next();
  }

  #take(request: LeanRequest) {
    const started = performance.now();
    const incoming = request.headers["x-request-id"]?.[0];
    const requestId = incoming !== undefined && isRequestId(incoming) ? incoming : newRequestId();
    request.headers["x-request-id"] = [requestId];
    let output: StubOutput | Promise<StubOutput>;
    try {
      output = serveStubNow({ method: request.method, url: request.url, headers: request.headers, rawBody: request.body, requestId });
    } catch (err) {
      output = Promise.reject(err);
    }
    this.#queue.push({ request, requestId, started, output });
  }

  /** Writes the answers that are ready, in order; a pending one holds the rest. */
  #next() {
    while (!this.#busy && this.#queue.length > 0) {
      const first = this.#queue[0];
      if (first.output instanceof Promise) {
        this.#busy = true;
        first.output.then(
          (o) => {
            first.output = o;
            this.#busy = false;
            this.#next();
          },
          (err: unknown) => {
            first.output = failureOutput(err, first.requestId);
            this.#busy = false;
            this.#next();
          },
        );
        return;
      }
      const out = first.output;
      if (out.delayMs > 0) {
        this.#busy = true;
        setTimeout(() => {
          this.#busy = false;
          out.delayMs = 0;
          this.#next();
        }, out.delayMs);
        return;
      }
      this.#queue.shift();
      if (this.#closed) {
        out.afterSend?.();
        continue;
      }
      if (out.stream) {
        this.#busy = true;
        void this.#stream(first, out).finally(() => {
          this.#busy = false;
          this.#next();
        });
        return;
      }
      this.#send(first, out);
    }
    if (this.#busy || this.#queue.length > 0) return;
    if (this.#forNode !== undefined && !this.#closed) {
      const rest = this.#forNode;
      this.#forNode = undefined;
      this.wire.connections.delete(this);
      this.socket.setTimeout(0);
      this.socket.removeListener("error", this.#onError);
      this.socket.removeListener("close", this.#onClose);
      this.socket.removeListener("end", this.#onEnd);
      this.wire.toNode(this.socket, rest);
    } else if (this.#ending && this.#pendingBytes === 0) this.socket.end();
  }

  /** A client that does not read its answers stops being read from until they drain (as node:http does). */
  #holdIfBacked() {
    if (this.#drainWait || !this.socket.writableNeedDrain) return;
    this.#drainWait = true;
    this.socket.pause();
    this.socket.once("drain", () => {
      this.#drainWait = false;
      if (this.#forNode === undefined) this.socket.resume();
    });
  }

  #send(served: Served, out: StubOutput) {
    const { request } = served;
    const head = request.method === "HEAD";
    // 204, 304 and 1xx carry neither a body nor a Content-Length (RFC 9110); a HEAD answer keeps a proxied upstream's length.
    const bodiless = out.status === 204 || out.status === 304 || (out.status >= 100 && out.status < 200);
    const keepLength = head && Object.keys(out.headers).some((h) => h.toLowerCase() === "content-length");
    const body = out.body;
    const length = typeof body === "string" ? Buffer.byteLength(body) : body.length;
    dropFramingHeaders(out.headers);
    let composed: { head: string; close: boolean };
    try {
      composed = responseHead(out.status, out.headers, !keepLength && !bodiless ? `Content-Length: ${length}\r\n` : "", this.#lastOne(request), this.wire.keepAliveSeconds);
    } catch (err) {
      return this.#writeFailure(served, err);
    }
    const withBody = !head && !bodiless && length > 0;
    const { afterSend } = out;
    const done = afterSend ? () => afterSend() : undefined;
    if (!withBody) this.socket.write(composed.head, "latin1", done);
    else if (typeof body === "string") this.socket.write(composed.head + body, "utf8", done);
    else {
      const bytes = Buffer.allocUnsafe(composed.head.length + body.length);
      bytes.write(composed.head, 0, "latin1");
      body.copy(bytes, composed.head.length);
      this.socket.write(bytes, done);
    }
    observeStub(request.method, out.status, (performance.now() - served.started) / 1000);
    if (composed.close) this.#closeAfterWrite();
    else this.#holdIfBacked();
  }

  /** The answer to `request` ends the connection: the client asked, or the connection is ending and nothing else came before the end. */
  #lastOne(request: LeanRequest): boolean {
    return request.close || (this.#ending && this.#queue.length === 0 && this.#forNode === undefined && this.#pendingBytes === 0);
  }

  #writeFailure(served: Served, err: unknown) {
    const out = failureOutput(err, served.requestId);
    const text = out.body as string;
    const { head } = responseHead(500, out.headers, `Content-Length: ${Buffer.byteLength(text)}\r\n`, this.#lastOne(served.request), this.wire.keepAliveSeconds);
    this.socket.write(head + (served.request.method === "HEAD" ? "" : text));
    observeStub(served.request.method, 500, (performance.now() - served.started) / 1000);
    if (this.#lastOne(served.request)) this.#closeAfterWrite();
  }

  #closeAfterWrite() {
    this.#queue.length = 0;
    this.#forNode = undefined;
    this.socket.removeListener("data", this.#onData);
    this.socket.end();
  }

  /** A chunked answer written as the stub produces it (SSE); later answers wait for its end. */
  async #stream(served: Served, out: StubOutput) {
    const { request } = served;
    let composed: { head: string; close: boolean };
    try {
      dropFramingHeaders(out.headers);
      composed = responseHead(out.status, out.headers, "", this.#lastOne(request), this.wire.keepAliveSeconds, "Transfer-Encoding: chunked\r\n");
    } catch (err) {
      out.afterSend?.();
      return this.#writeFailure(served, err);
    }
    this.socket.write(composed.head, "latin1");
    let resolveGone!: () => void;
    const gone = new Promise<void>((r) => (resolveGone = r));
    const onGone = () => resolveGone();
    this.socket.once("close", onGone);
    const socket = this.socket;
    const isHead = request.method === "HEAD";
    try {
      await out.stream!({
        write: (chunk) => {
          if (socket.destroyed || isHead || chunk.length === 0) return;
          socket.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
        },
        get closed() {
          return socket.destroyed;
        },
        gone,
      });
    } finally {
      socket.removeListener("close", onGone);
      if (!socket.destroyed) socket.write(isHead ? "" : "0\r\n\r\n");
      out.afterSend?.();
      observeStub(request.method, out.status, (performance.now() - served.started) / 1000);
      if (composed.close && !socket.destroyed) this.#closeAfterWrite();
    }
  }
}

/** The 500 envelope of a stub that failed (as http-stub.ts's stubFailed writes it). */
function failureOutput(err: unknown, requestId: string): StubOutput {
  logger().error({ err, requestId }, "stub request failed");
  return { status: 500, headers: { "Content-Type": "application/json" }, body: JSON.stringify(internalErrorBody(requestId)), delayMs: 0 };
}

/** The lean layer of one node:http server. */
class LeanWire {
  readonly connections = new Set<LeanConnection>();
  readonly #node: ((socket: net.Socket) => void)[];

  constructor(readonly server: http.Server) {
    this.#node = server.listeners("connection") as ((socket: net.Socket) => void)[];
  }

  get keepAliveSeconds(): number {
    return Math.floor(this.server.keepAliveTimeout / 1000);
  }

  accept = (socket: net.Socket) => {
    const c = new LeanConnection(socket, this);
    this.connections.add(c);
    c.start();
  };

  /** node:http takes the connection with `rest` as the first bytes it reads. */
  toNode(socket: net.Socket, rest: Buffer) {
    // node:http would otherwise read the socket's handle directly (parser.consume) and miss the bytes put back.
    const handle = (socket as net.Socket & { _handle?: { _consumed?: boolean } })._handle;
    if (handle) handle._consumed = true;
    if (rest.length > 0) socket.unshift(rest);
    for (const listener of this.#node) listener.call(this.server, socket);
    socket.resume();
  }
}

/**
 * Puts the lean layer in front of `server`'s connections (server/transport/front.ts).
 * `STUB_WIRE=node` leaves every connection to node:http.
 */
export function serveStubsLean(server: http.Server): void {
  if (process.env.STUB_WIRE === "node") return;
  const wire = new LeanWire(server);
  server.removeAllListeners("connection");
  server.on("connection", wire.accept);
  // node:http closes its idle connections on close; these are not in its list.
  const close = server.close.bind(server);
  server.close = ((cb?: (err?: Error) => void) => {
    for (const c of wire.connections) c.endWhenIdle();
    return close(cb);
  }) as typeof server.close;
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    for (const c of wire.connections) if (c.idle) c.socket.end();
    closeIdle();
  };
  const closeAll = server.closeAllConnections.bind(server);
  server.closeAllConnections = () => {
    for (const c of wire.connections) c.socket.destroy();
    closeAll();
  };
}
