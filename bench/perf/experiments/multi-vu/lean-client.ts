// A deliberately minimal HTTP/1.1 client, for the experiment only: keep-alive
// sockets to one origin, a request written as one prebuilt buffer, answers
// with Content-Length parsed by hand (no chunked bodies, redirects, TLS or
// timeouts). It answers what LoadHttpClient answers (status, headers as k6
// names them, body, timings), so comparing the two shows what undici and the
// general client cost per request on this machine, i.e. how low the host's
// floor could go with a client built for load generation.
import net from "node:net";
import type { HostRequest, HostResponse } from "../../../../server/perf/k6/isolate/http";

interface Pending {
  resolve: (r: HostResponse) => void;
  req: HostRequest;
  started: number;
}

class Connection {
  readonly socket: net.Socket;
  #buf: Buffer | undefined;
  #pending: Pending | undefined;
  #headersAt = 0;
  constructor(host: string, port: number, readonly release: (c: Connection) => void) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on("data", (chunk: Buffer) => this.#data(chunk));
  }

  send(bytes: Buffer, p: Pending) {
    this.#pending = p;
    this.socket.write(bytes);
  }

  #data(chunk: Buffer) {
    const buf = this.#buf ? Buffer.concat([this.#buf, chunk]) : chunk;
    const end = buf.indexOf("\r\n\r\n");
    if (end < 0) {
      this.#buf = buf;
      return;
    }
    if (!this.#headersAt) this.#headersAt = performance.now();
    const head = buf.toString("latin1", 0, end);
    const lines = head.split("\r\n");
    const status = Number(lines[0].slice(9, 12));
    const headers: Record<string, string> = {};
    let length = 0;
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i].indexOf(":");
      const name = lines[i].slice(0, colon).toLowerCase().replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase());
      const value = lines[i].slice(colon + 1).trim();
      headers[name] = value;
      if (name === "Content-Length") length = Number(value);
    }
    if (buf.length < end + 4 + length) {
      this.#buf = buf;
      return;
    }
    this.#buf = undefined;
    const p = this.#pending!;
    this.#pending = undefined;
    const done = performance.now();
    const waiting = this.#headersAt - p.started;
    const receiving = done - this.#headersAt;
    this.#headersAt = 0;
    p.resolve({
      status,
      statusText: String(status),
      url: p.req.url,
      proto: "HTTP/1.1",
      headers,
      body: buf.toString("utf8", end + 4, end + 4 + length),
      timings: { blocked: 0, connecting: 0, tls_handshaking: 0, sending: 0, waiting, receiving, duration: done - p.started },
      error: "",
      errorCode: 0,
      remoteIp: this.socket.remoteAddress ?? "",
      remotePort: this.socket.remotePort ?? 0,
    });
    this.release(this);
  }
}

export class LeanClient {
  readonly #idle: Connection[] = [];
  readonly #requests = new Map<string, Buffer>();
  readonly #host: string;
  readonly #port: number;
  constructor(origin: string) {
    const u = new URL(origin);
    this.#host = u.hostname;
    this.#port = Number(u.port) || 80;
  }

  send(req: HostRequest): Promise<HostResponse> {
    let bytes = this.#requests.get(req.url);
    if (!bytes) {
      const u = new URL(req.url);
      bytes = Buffer.from(`${req.method} ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUser-Agent: polymock-load/1 (k6 compatible)\r\n\r\n`, "latin1");
      this.#requests.set(req.url, bytes);
    }
    const conn = this.#idle.pop() ?? new Connection(this.#host, this.#port, (c) => this.#idle.push(c));
    const b = bytes;
    return new Promise((resolve) => conn.send(b, { resolve, req, started: performance.now() }));
  }

  close() {
    for (const c of this.#idle) c.socket.destroy();
  }
}
