// An HTTP/1.1 client on a bare node:net socket, for wire-level tests that must
// send exactly a real client's bytes (h2c offers, oversized bodies, broken
// encodings) and see every response on one connection, or that it closed.
import net from "node:net";

export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** The status line and headers as sent. */
  head: string;
}

export class RawConnection {
  private readonly socket: net.Socket;
  private buffer = Buffer.alloc(0);
  private readonly parsed: RawResponse[] = [];
  private waiting: (() => void) | undefined;
  /** Resolves when the server has closed (or reset) the connection. */
  readonly closed: Promise<void>;
  isClosed = false;

  constructor(port: number, host = "127.0.0.1") {
    this.socket = net.connect(port, host);
    this.socket.on("data", (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    this.closed = new Promise((resolve) => {
      const done = () => {
        this.isClosed = true;
        this.waiting?.();
        resolve();
      };
      this.socket.on("close", done);
      this.socket.on("error", () => {});
    });
  }

  /** Writes bytes; a write to a connection the server closed is ignored (the test looks at `closed`). */
  send(data: string | Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed || !this.socket.writable) return resolve();
      this.socket.write(data, () => resolve());
    });
  }

  /** The next complete response, or undefined when the connection closes first. */
  async next(): Promise<RawResponse | undefined> {
    while (this.parsed.length === 0) {
      if (this.isClosed) return undefined;
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = undefined;
    }
    return this.parsed.shift();
  }

  close() {
    this.socket.destroy();
  }

  private parse() {
    for (;;) {
      const end = this.buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = this.buffer.subarray(0, end).toString("latin1");
      const [statusLine, ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
      }
      const status = Number(statusLine.split(" ")[1]);
      let rest = this.buffer.subarray(end + 4);
      let body: Buffer;
      if (headers["transfer-encoding"]?.toLowerCase().includes("chunked")) {
        const chunks: Buffer[] = [];
        for (;;) {
          const lineEnd = rest.indexOf("\r\n");
          if (lineEnd < 0) return;
          const size = parseInt(rest.subarray(0, lineEnd).toString("latin1"), 16);
          if (rest.length < lineEnd + 2 + size + 2) return;
          if (size === 0) {
            rest = rest.subarray(lineEnd + 4);
            break;
          }
          chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
          rest = rest.subarray(lineEnd + 2 + size + 2);
        }
        body = Buffer.concat(chunks);
      } else {
        const length = status === 204 || status === 304 || (status >= 100 && status < 200) ? 0 : Number(headers["content-length"] ?? 0);
        if (rest.length < length) return;
        body = rest.subarray(0, length);
        rest = rest.subarray(length);
      }
      this.buffer = rest;
      // 1xx answers (100 Continue) are not the response.
      if (status >= 200) this.parsed.push({ status, headers, body: body.toString("utf8"), head });
      this.waiting?.();
    }
  }
}

/** One request on a fresh connection: its response (or undefined if the server closed without one). */
export async function rawRequest(port: number, bytes: string | Buffer): Promise<RawResponse | undefined> {
  const conn = new RawConnection(port);
  await conn.send(bytes);
  const res = await conn.next();
  conn.close();
  return res;
}
