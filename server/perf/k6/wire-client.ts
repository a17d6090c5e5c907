// An HTTP/1.1 client built for load generation: keep-alive connections pooled
// per dialled origin (no limit: a request that finds no idle connection opens
// one, as k6's VUs each would), the request written as one buffer, and the
// answer parsed by hand. It owns the wire only: URLs, policy, redirects and
// decoding are the caller's (http-driver.ts).
//
// It is the hot path of a load test (tens of thousands of requests a second),
// so per request it allocates the exchange, its promise and what the answer
// holds, nothing else: socket listeners and the timeout timer belong to the
// connection and are reused by every request it carries.
import net from "node:net";
import tls from "node:tls";

/** Where connections go; one pool per `key`. Built once per URL by the caller and reused. */
export interface WireOrigin {
  key: string;
  host: string;
  port: number;
  tls: boolean;
  /** TLS server name (SNI and the name the certificate must carry); undefined for an IP address. */
  servername: string | undefined;
}

/** A failure on the wire, with the errno-like code the caller classifies (ECONNRESET, ETIMEDOUT, …). */
export class WireError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = "WireError";
  }
}

/** The answer's bytes broke HTTP/1.1's grammar. */
export class MalformedResponseError extends Error {
  override name = "MalformedResponseError";
  readonly code = "HPE_MALFORMED";
}

/** The request's time ran out (waiting for a connection, the headers or the body). */
export class RequestTimeoutError extends Error {
  override name = "TimeoutError";
}

const MAX_HEAD_BYTES = 64 * 1024;
const MAX_CHUNK_LINE_BYTES = 4096;
const CONNECT_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 30_000;
const SWEEP_EVERY_MS = 1000;
/** setTimeout's longest delay; a longer (or zero) request timeout means none, as undici's did. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const NO_BYTES = Buffer.alloc(0);

// Parser states.
const S_IDLE = 0;
const S_HEAD = 1;
const S_LENGTH = 2;
const S_CLOSE = 3;
const S_CHUNK_SIZE = 4;
const S_CHUNK_DATA = 5;
const S_CHUNK_END = 6;
const S_TRAILERS = 7;

const HTTP_1 = Buffer.from("HTTP/1.", "latin1");
const isDigit = (c: number) => c >= 48 && c <= 57;
const NO_HEADERS: readonly string[] = [];

/**
 * One request and, once it is done, its answer. Times are performance.now()
 * readings; the caller turns them into k6's timings.
 */
export class WireExchange {
  status = 0;
  /** "1.1" or "1.0": the answer's protocol version. */
  version = "1.1";
  /** The final answer's headers as they came: name, value, name, value, … (repeated names kept). */
  rawHeaders: readonly string[] = NO_HEADERS;
  chunks: Buffer[] = [];
  /** Body bytes on the wire (counted even when they are not kept). */
  bodySize = 0;
  /** The body exceeded the cap: `chunks` hold its first `maxBody` bytes, the connection was dropped. */
  cut = false;
  error: Error | undefined;
  bytesOut = 0;
  bytesIn = 0;
  remoteAddress = "";
  remotePort = 0;
  startAt = 0;
  /** Connection ready to write to (reused or freshly dialled). */
  readyAt = 0;
  /** Dial phases, 0 when the request went out on a connection that was already open. */
  dialAt = 0;
  connectedAt = 0;
  secureAt = 0;
  lookedUpAt = 0;
  sentAt = 0;
  firstByteAt = 0;
  endAt = 0;
  retried = false;
  finished = false;
  /** @internal */ conn: Connection | undefined;
  /** @internal */ deadline = 0;
  /** @internal */ resolve: ((x: WireExchange) => void) | undefined;

  constructor(
    readonly bytes: Buffer,
    /** A HEAD request: the answer has no body whatever its headers say. */
    readonly headRequest: boolean,
    readonly keepBody: boolean,
    readonly timeoutMs: number,
    readonly maxBody: number,
    /**
     * May be sent again when a reused connection fails before any answer
     * byte. As Go's transport (so k6) decides: GET, HEAD, OPTIONS and TRACE,
     * or a request with an Idempotency-Key; a POST the server may have acted
     * on is not sent twice.
     */
    readonly replayable = true,
  ) {}
}

function finish(ex: WireExchange, err?: Error): void {
  if (ex.finished) return;
  ex.finished = true;
  ex.conn = undefined;
  if (err) ex.error = err;
  if (ex.endAt === 0) ex.endAt = performance.now();
  ex.resolve!(ex);
}

class Pool {
  /** Open and ready, most recently used last (taken first: it is the least likely to have been closed by the server). */
  readonly idle: Connection[] = [];
  readonly all = new Set<Connection>();
  constructor(
    readonly origin: WireOrigin,
    readonly client: WireClient,
  ) {}

  remove(c: Connection): void {
    this.all.delete(c);
    const i = this.idle.indexOf(c);
    if (i >= 0) this.idle.splice(i, 1);
  }
}

class Connection {
  readonly socket: net.Socket;
  ready = false;
  dead = false;
  /** Answers completed on this connection: a failure on a reused one may be the server closing it as we wrote. */
  served = 0;
  ex: WireExchange | undefined;
  idleSince = 0;
  #state = S_IDLE;
  #pending: Buffer | undefined;
  #remaining = 0;
  #keepAlive = true;
  #timer: NodeJS.Timeout | undefined;
  #timerMs = 0;
  #connectTimer: NodeJS.Timeout | undefined;
  #remoteAddress = "";
  #remotePort = 0;
  #dialAt = 0;
  #lookedUpAt = 0;
  #connectedAt = 0;
  #secureAt = 0;

  constructor(
    readonly pool: Pool,
    ex: WireExchange,
  ) {
    const o = pool.origin;
    const client = pool.client;
    this.#dialAt = performance.now();
    if (o.tls) {
      this.socket = tls.connect({ host: o.host, port: o.port, servername: o.servername, ALPNProtocols: ["http/1.1"], rejectUnauthorized: client.rejectUnauthorized, lookup: client.lookup });
      this.socket.setNoDelay(true);
      this.socket.once("secureConnect", () => this.#onReady());
    } else {
      this.socket = net.connect({ host: o.host, port: o.port, noDelay: true, lookup: client.lookup });
    }
    pool.all.add(this);
    this.socket.once("lookup", () => (this.#lookedUpAt = performance.now()));
    this.socket.once("connect", () => {
      this.#connectedAt = performance.now();
      if (!o.tls) this.#onReady();
    });
    this.socket.on("data", (chunk: Buffer) => this.#onData(chunk));
    this.socket.on("end", () => this.#onEnd());
    this.socket.on("error", (err: Error) => this.#fail(err, true));
    this.socket.on("close", () => {
      // Usually our own destroy, after the answer: an error (and its stack) only when a request was still waiting.
      if (this.ex) this.#fail(new WireError("connection closed before the answer was complete", "ECONNRESET"), true);
      else this.#kill();
    });
    this.#connectTimer = setTimeout(() => {
      if (!this.ready) this.#fail(new WireError(`connect ETIMEDOUT ${o.host}:${o.port}`, "ETIMEDOUT"), false);
    }, CONNECT_TIMEOUT_MS);
    this.#connectTimer.unref();
    this.ex = ex;
    ex.conn = this;
    this.#arm(ex);
  }

  #onReady(): void {
    this.ready = true;
    clearTimeout(this.#connectTimer);
    this.#connectTimer = undefined;
    this.#secureAt = this.pool.origin.tls ? performance.now() : 0;
    this.#remoteAddress = this.socket.remoteAddress ?? "";
    this.#remotePort = this.socket.remotePort ?? 0;
    const ex = this.ex;
    if (!ex) return this.#kill();
    ex.dialAt = this.#dialAt;
    ex.lookedUpAt = this.#lookedUpAt;
    ex.connectedAt = this.#connectedAt;
    ex.secureAt = this.#secureAt;
    this.#write(ex);
  }

  /** Sends `ex` on this (idle, ready) connection. */
  send(ex: WireExchange): void {
    this.ex = ex;
    ex.conn = this;
    this.#arm(ex);
    this.#write(ex);
  }

  /**
   * The request's timer: one Timeout per connection, refreshed by each
   * request of the usual duration (refresh re-arms a pending or a fired one),
   * so a request normally allocates none. A timer left pending when the
   * connection went idle fires into nothing.
   */
  #arm(ex: WireExchange): void {
    const ms = ex.timeoutMs;
    if (!(ms > 0 && ms <= MAX_TIMER_MS)) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      return;
    }
    const left = ex.deadline - performance.now();
    if (left >= ms - 1) {
      if (this.#timer !== undefined && this.#timerMs === ms) {
        this.#timer.refresh();
        return;
      }
      clearTimeout(this.#timer);
      this.#timerMs = ms;
      this.#timer = setTimeout(this.#onTimer, ms);
    } else {
      // A retry, with what is left of the request's time.
      clearTimeout(this.#timer);
      this.#timerMs = 0;
      this.#timer = setTimeout(this.#onTimer, Math.max(1, left));
    }
    this.#timer.unref();
  }

  readonly #onTimer = (): void => {
    // Every request arms the timer, so while one is in flight a firing is its own.
    if (this.ex) this.#fail(new RequestTimeoutError("request timeout"), false);
  };

  #write(ex: WireExchange): void {
    ex.readyAt = performance.now();
    ex.remoteAddress = this.#remoteAddress;
    ex.remotePort = this.#remotePort;
    ex.bytesOut += ex.bytes.length;
    this.#state = S_HEAD;
    this.#keepAlive = true;
    this.socket.write(ex.bytes, this.#onWritten);
  }

  readonly #onWritten = (): void => {
    const ex = this.ex;
    if (ex && ex.sentAt === 0) ex.sentAt = performance.now();
  };

  #onData(chunk: Buffer): void {
    const ex = this.ex;
    if (!ex) {
      // Bytes nobody asked for: the connection's framing cannot be trusted any more.
      this.#kill();
      return;
    }
    if (ex.firstByteAt === 0) {
      ex.firstByteAt = performance.now();
      if (ex.sentAt === 0) ex.sentAt = ex.firstByteAt;
    }
    ex.bytesIn += chunk.length;
    let buf = chunk;
    if (this.#pending !== undefined) {
      buf = Buffer.concat([this.#pending, chunk]);
      this.#pending = undefined;
    }
    try {
      this.#consume(ex, buf, 0);
    } catch (e) {
      if (e instanceof MalformedResponseError) this.#fail(e, false);
      else throw e;
    }
  }

  /** Advances the parser over `buf` from `off`; returns when it needs more bytes or the answer is complete. */
  #consume(ex: WireExchange, buf: Buffer, off: number): void {
    for (;;) {
      switch (this.#state) {
        case S_HEAD: {
          const end = this.#parseHead(ex, buf, off);
          if (end < 0) {
            if (buf.length - off > MAX_HEAD_BYTES) throw new MalformedResponseError(`malformed HTTP response: headers over ${MAX_HEAD_BYTES} bytes`);
            this.#pending = off === 0 ? buf : buf.subarray(off);
            return;
          }
          off = end;
          const status = ex.status;
          if (status < 200 && status !== 101) {
            // An informational answer (100 Continue, 103 Early Hints) before the real one.
            ex.rawHeaders = NO_HEADERS;
            ex.status = 0;
            continue;
          }
          if (status === 101 || status === 204 || status === 304 || ex.headRequest) {
            if (status === 101) this.#keepAlive = false;
            this.#complete(ex, buf, off);
            return;
          }
          const framing = this.#framing(ex);
          if (framing === -2) this.#state = S_CHUNK_SIZE;
          else if (framing === -1) {
            this.#state = S_CLOSE;
            this.#keepAlive = false;
          } else if (framing === 0) {
            this.#complete(ex, buf, off);
            return;
          } else {
            this.#state = S_LENGTH;
            this.#remaining = framing;
          }
          continue;
        }
        case S_LENGTH: {
          const n = Math.min(this.#remaining, buf.length - off);
          if (n > 0 && !this.#take(ex, buf, off, off + n)) return;
          off += n;
          this.#remaining -= n;
          if (this.#remaining === 0) this.#complete(ex, buf, off);
          return;
        }
        case S_CLOSE:
          if (off < buf.length) this.#take(ex, buf, off, buf.length);
          return;
        case S_CHUNK_SIZE: {
          const nl = buf.indexOf(10, off);
          if (nl < 0) {
            if (buf.length - off > MAX_CHUNK_LINE_BYTES) throw new MalformedResponseError("malformed HTTP response: chunk size line too long");
            this.#pending = buf.subarray(off);
            return;
          }
          let size = 0;
          let digits = 0;
          let i = off;
          for (; i < nl; i++) {
            const c = buf[i];
            const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
            if (d < 0) break;
            size = size * 16 + d;
            digits++;
          }
          // After the digits: chunk extensions (";name=value") or optional whitespace, then CRLF.
          const after = buf[i];
          if (digits === 0 || digits > 12 || (i < nl && after !== 59 && after !== 13 && after !== 32 && after !== 9)) {
            throw new MalformedResponseError("malformed HTTP response: bad chunk size");
          }
          off = nl + 1;
          if (size === 0) this.#state = S_TRAILERS;
          else {
            this.#remaining = size;
            this.#state = S_CHUNK_DATA;
          }
          continue;
        }
        case S_CHUNK_DATA: {
          const n = Math.min(this.#remaining, buf.length - off);
          if (n > 0 && !this.#take(ex, buf, off, off + n)) return;
          off += n;
          this.#remaining -= n;
          if (this.#remaining > 0) return;
          this.#state = S_CHUNK_END;
          continue;
        }
        case S_CHUNK_END: {
          if (off >= buf.length) return;
          if (buf[off] === 13) {
            if (off + 1 >= buf.length) {
              this.#pending = buf.subarray(off);
              return;
            }
            if (buf[off + 1] !== 10) throw new MalformedResponseError("malformed HTTP response: chunk not followed by CRLF");
            off += 2;
          } else if (buf[off] === 10) off += 1;
          else throw new MalformedResponseError("malformed HTTP response: chunk not followed by CRLF");
          this.#state = S_CHUNK_SIZE;
          continue;
        }
        case S_TRAILERS: {
          // Trailer fields are read past, not kept (k6 does not show them).
          const nl = buf.indexOf(10, off);
          if (nl < 0) {
            if (buf.length - off > MAX_HEAD_BYTES) throw new MalformedResponseError("malformed HTTP response: trailers too long");
            this.#pending = buf.subarray(off);
            return;
          }
          const empty = nl === off || (nl === off + 1 && buf[off] === 13);
          off = nl + 1;
          if (empty) {
            this.#complete(ex, buf, off);
            return;
          }
          continue;
        }
        default:
          return;
      }
    }
  }

  /**
   * The status line and headers from `off`: the offset after the blank line
   * that ends them, or -1 when they are not all there yet (parsed again from
   * the start when more bytes come: heads split across reads are rare).
   */
  #parseHead(ex: WireExchange, buf: Buffer, off: number): number {
    let nl = buf.indexOf(10, off);
    if (nl < 0) return -1;
    const lineEnd = nl > off && buf[nl - 1] === 13 ? nl - 1 : nl;
    // "HTTP/1.x NNN[ reason]", read off the bytes.
    const minor = buf[off + 7];
    const status = (buf[off + 9] - 48) * 100 + (buf[off + 10] - 48) * 10 + (buf[off + 11] - 48);
    if (
      lineEnd - off < 12 ||
      buf.compare(HTTP_1, 0, 7, off, off + 7) !== 0 ||
      (minor !== 48 && minor !== 49) ||
      buf[off + 8] !== 32 ||
      !isDigit(buf[off + 9]) ||
      !isDigit(buf[off + 10]) ||
      !isDigit(buf[off + 11]) ||
      status < 100 ||
      (lineEnd - off > 12 && buf[off + 12] !== 32)
    ) {
      throw new MalformedResponseError(`malformed HTTP response: status line ${JSON.stringify(buf.toString("latin1", off, Math.min(lineEnd, off + 64)))}`);
    }
    const raw: string[] = [];
    let pos = nl + 1;
    for (;;) {
      nl = buf.indexOf(10, pos);
      if (nl < 0) return -1;
      const end = nl > pos && buf[nl - 1] === 13 ? nl - 1 : nl;
      if (end === pos) {
        pos = nl + 1;
        break;
      }
      const line = buf.toString("latin1", pos, end);
      pos = nl + 1;
      const first = line.charCodeAt(0);
      if (first === 32 || first === 9) {
        // obs-fold: a continuation of the previous field's value.
        if (raw.length === 0) throw new MalformedResponseError("malformed HTTP response: continuation line before any header");
        raw[raw.length - 1] += ` ${line.trim()}`;
        continue;
      }
      const colon = line.indexOf(":");
      if (colon <= 0 || line.charCodeAt(colon - 1) === 32 || line.charCodeAt(colon - 1) === 9) {
        throw new MalformedResponseError(`malformed HTTP response: header line ${JSON.stringify(line.slice(0, 64))}`);
      }
      raw.push(line.slice(0, colon), line.slice(colon + 1).trim());
    }
    ex.status = status;
    ex.version = minor === 48 ? "1.0" : "1.1";
    ex.rawHeaders = raw;
    return pos;
  }

  /**
   * How the body is delimited: its length, -2 for chunked, -1 for "until the
   * connection closes". Also settles whether the connection stays open.
   */
  #framing(ex: WireExchange): number {
    const raw = ex.rawHeaders;
    let length = -1;
    let chunked = false;
    let transferCoded = false;
    let connection = "";
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i];
      const n = name.length;
      if (n !== 14 && n !== 17 && n !== 10) continue;
      const lower = name.toLowerCase();
      if (lower === "content-length") {
        const v = raw[i + 1];
        if (!/^\d{1,15}$/.test(v)) throw new MalformedResponseError(`malformed HTTP response: Content-Length ${JSON.stringify(v.slice(0, 32))}`);
        const len = Number(v);
        if (length >= 0 && len !== length) throw new MalformedResponseError("malformed HTTP response: conflicting Content-Length headers");
        length = len;
      } else if (lower === "transfer-encoding") {
        transferCoded = true;
        const v = raw[i + 1].toLowerCase();
        // Chunked must be the last coding applied; otherwise the body runs to the close.
        chunked = /(?:^|,)\s*chunked\s*$/.test(v);
      } else if (lower === "connection") connection += `${raw[i + 1].toLowerCase()},`;
    }
    if (ex.version === "1.0") this.#keepAlive = connection.includes("keep-alive");
    else if (connection.includes("close")) this.#keepAlive = false;
    if (transferCoded) {
      // Transfer-Encoding overrides Content-Length; a message with both may be a smuggling attempt, so it is not reused.
      if (length >= 0) this.#keepAlive = false;
      return chunked ? -2 : -1;
    }
    return length;
  }

  /** Keeps (or counts) body bytes; false when the cap cut the answer (which is then complete). */
  #take(ex: WireExchange, buf: Buffer, from: number, to: number): boolean {
    const size = ex.bodySize + (to - from);
    if (size > ex.maxBody) {
      if (ex.keepBody && ex.maxBody > ex.bodySize) ex.chunks.push(buf.subarray(from, from + (ex.maxBody - ex.bodySize)));
      ex.bodySize = ex.maxBody;
      ex.cut = true;
      this.#keepAlive = false;
      this.#complete(ex, buf, buf.length);
      return false;
    }
    ex.bodySize = size;
    if (ex.keepBody) ex.chunks.push(from === 0 && to === buf.length ? buf : buf.subarray(from, to));
    return true;
  }

  #complete(ex: WireExchange, buf: Buffer, off: number): void {
    ex.endAt = performance.now();
    this.served++;
    this.ex = undefined;
    ex.conn = undefined;
    // Leftover bytes (nothing was pipelined) or an unflushed request body mean the framing is off: not reusable.
    const reuse = this.#keepAlive && this.#state !== S_CLOSE && off >= buf.length && this.socket.writableLength === 0;
    this.#state = S_IDLE;
    this.#pending = undefined;
    if (reuse) this.#release();
    else this.#kill();
    finish(ex);
  }

  #release(): void {
    const client = this.pool.client;
    if (this.dead || client.closed) return this.#kill();
    this.idleSince = performance.now();
    this.pool.idle.push(this);
  }

  #onEnd(): void {
    const ex = this.ex;
    if (!ex) this.#kill();
    else if (this.#state === S_CLOSE) this.#complete(ex, NO_BYTES, 0);
    else this.#fail(new WireError("connection closed by the server before the answer was complete", "ECONNRESET"), true);
  }

  /** The connection failed or was given up: drop it, and end (or retry) the request it carried. */
  #fail(err: Error, retryable: boolean): void {
    const ex = this.ex;
    this.ex = undefined;
    this.#kill();
    if (!ex) return;
    ex.conn = undefined;
    // A reused connection that fails before any answer byte was most likely closed by the server while idle, as we wrote: once more on a new one.
    if (retryable && ex.replayable && this.served > 0 && ex.firstByteAt === 0 && !ex.retried && !ex.finished && !this.pool.client.closed) {
      ex.retried = true;
      ex.sentAt = 0;
      new Connection(this.pool, ex);
      return;
    }
    finish(ex, err);
  }

  /** Closes the socket and forgets the connection (idempotent). */
  #kill(): void {
    if (this.dead) return;
    this.dead = true;
    this.#state = S_IDLE;
    this.#pending = undefined;
    clearTimeout(this.#timer);
    clearTimeout(this.#connectTimer);
    this.pool.remove(this);
    this.socket.destroy();
  }

  /** Gives up the request in flight (the run stopped, the client closed). */
  abort(ex: WireExchange, err: Error): void {
    if (this.ex === ex) {
      this.ex = undefined;
      this.#kill();
    }
    finish(ex, err);
  }

  closeIdle(now: number, maxIdleMs: number): void {
    if (this.ex === undefined && now - this.idleSince >= maxIdleMs) this.#kill();
  }

  destroy(): void {
    const ex = this.ex;
    if (ex) this.abort(ex, new WireError("the client was closed", "ECONNRESET"));
    else this.#kill();
  }
}

export interface WireClientOptions {
  /** Resolves every name dialled (the outbound policy's guard). */
  lookup?: net.LookupFunction;
  rejectUnauthorized?: boolean;
  idleTimeoutMs?: number;
}

export class WireClient {
  readonly lookup: net.LookupFunction | undefined;
  readonly rejectUnauthorized: boolean;
  readonly #idleTimeoutMs: number;
  readonly #pools = new Map<string, Pool>();
  #sweeper: NodeJS.Timeout | undefined;
  closed = false;

  constructor(opts: WireClientOptions = {}) {
    this.lookup = opts.lookup;
    this.rejectUnauthorized = opts.rejectUnauthorized ?? true;
    this.#idleTimeoutMs = opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  }

  /** Sends `ex` to `origin`; resolves with it when answered or failed (`ex.error`), never rejects. */
  send(origin: WireOrigin, ex: WireExchange): Promise<WireExchange> {
    return new Promise((resolve) => {
      ex.resolve = resolve;
      ex.startAt = performance.now();
      ex.deadline = ex.startAt + ex.timeoutMs;
      if (this.closed) return finish(ex, new WireError("the client was closed", "ECONNRESET"));
      let pool = this.#pools.get(origin.key);
      if (pool === undefined) {
        pool = new Pool(origin, this);
        this.#pools.set(origin.key, pool);
        this.#sweeper ??= setInterval(() => this.#sweep(), Math.min(SWEEP_EVERY_MS, this.#idleTimeoutMs)).unref();
      }
      const idle = pool.idle;
      let conn = idle.pop();
      while (conn !== undefined && conn.dead) conn = idle.pop();
      if (conn !== undefined) return conn.send(ex);
      try {
        new Connection(pool, ex);
      } catch (e) {
        // net/tls refuse some options at once (a bad port): an answer like any failed dial.
        finish(ex, e as Error);
      }
    });
  }

  /** Ends `ex` at once with `err` (its connection is dropped: its answer may still be on the way). */
  abort(ex: WireExchange, err: Error): void {
    if (ex.finished) return;
    if (ex.conn) ex.conn.abort(ex, err);
    else finish(ex, err);
  }

  /** Connections of a pool: open ones and, of those, idle ones (for tests and diagnostics). */
  connections(key: string): { open: number; idle: number } {
    const pool = this.#pools.get(key);
    return { open: pool?.all.size ?? 0, idle: pool?.idle.length ?? 0 };
  }

  #sweep(): void {
    const now = performance.now();
    for (const [key, pool] of this.#pools) {
      for (let i = pool.idle.length - 1; i >= 0; i--) pool.idle[i]?.closeIdle(now, this.#idleTimeoutMs);
      // A pool with no connection left is made again if its origin is asked for again.
      if (pool.all.size === 0) this.#pools.delete(key);
    }
  }

  /** Drops every connection; requests still in flight end with an error. */
  close(): void {
    this.closed = true;
    clearInterval(this.#sweeper);
    for (const pool of this.#pools.values()) for (const c of [...pool.all]) c.destroy();
    this.#pools.clear();
  }
}
