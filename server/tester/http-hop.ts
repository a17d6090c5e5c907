// One request/answer exchange on the wire (one hop of a redirect chain), with
// each phase timed from the socket's own events: `lookup` ends DNS, `connect`
// ends TCP, `secureConnect` ends TLS, the `response` event is the first byte.
// A socket taken from the keep-alive pool emits none of the first three, and
// its phases are 0. Cancellation (timeout, abort) destroys the exchange
// whatever phase it is in.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Timings } from "@/server/contracts/tester-execution";
import type { HeaderEntry } from "./prepared-request";
import { SendError, toSendError } from "./send-error";

/** One reason to stop, shared by every hop of a send; the first reason wins. */
export class Cancellation {
  reason?: SendError;
  private readonly handlers = new Set<(reason: SendError) => void>();

  cancel(reason: SendError): void {
    if (this.reason) return;
    this.reason = reason;
    for (const h of [...this.handlers]) h(reason);
    this.handlers.clear();
  }

  /** Runs `h` on cancel (at once when already cancelled); returns the unsubscribe. */
  onCancel(h: (reason: SendError) => void): () => void {
    if (this.reason) {
      h(this.reason);
      return () => {};
    }
    this.handlers.add(h);
    return () => this.handlers.delete(h);
  }

  throwIfCancelled(): void {
    if (this.reason) throw this.reason;
  }
}

export interface Hop {
  url: URL;
  method: string;
  headers: readonly HeaderEntry[];
  body?: Buffer;
  agent: http.Agent;
  lookup: LookupFunction;
}

interface Marks {
  start: number;
  reused: boolean;
  lookupAt?: number;
  connectAt?: number;
  secureAt?: number;
  sentAt?: number;
  responseAt: number;
}

export interface OpenedHop {
  res: http.IncomingMessage;
  remoteAddress?: string;
  /** The phases up to `endAt` (when the body was read). */
  timings(endAt: number): Omit<Timings, "totalMs">;
  /** Stops listening for cancellation (once the body is read or drained). */
  release(): void;
}

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]);

/** Repeated names become one header with several lines (Cookie, which must be one line, is joined with "; "). */
function nodeHeaders(entries: readonly HeaderEntry[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const nameOf = new Map<string, string>();
  for (const { key, value } of entries) {
    const lower = key.toLowerCase();
    const name = nameOf.get(lower);
    if (name === undefined) {
      nameOf.set(lower, key);
      out[key] = value;
    } else if (lower === "cookie") out[name] = `${out[name] as string}; ${value}`;
    else out[name] = [out[name]].flat().concat(value);
  }
  return out;
}

const ms = (n: number) => Math.max(0, Math.round(n * 1000) / 1000);

function timingsOf(m: Marks, endAt: number): Omit<Timings, "totalMs"> {
  const dnsMs = m.reused || m.lookupAt === undefined ? 0 : m.lookupAt - m.start;
  const connectMs = m.reused || m.connectAt === undefined ? 0 : m.connectAt - (m.lookupAt ?? m.start);
  const tlsMs = m.reused || m.secureAt === undefined || m.connectAt === undefined ? 0 : m.secureAt - m.connectAt;
  // A request written to a socket still connecting is buffered: it is sent once the socket is ready.
  const sent = Math.max(m.sentAt ?? m.start, m.secureAt ?? m.connectAt ?? m.start);
  return { dnsMs: ms(dnsMs), connectMs: ms(connectMs), tlsMs: ms(tlsMs), firstByteMs: ms(m.responseAt - sent), downloadMs: ms(endAt - m.responseAt) };
}

/**
 * Sends the request and resolves when the answer's head has arrived; the body
 * is left for the caller to read. A keep-alive socket the server closed while
 * idle fails at once with ECONNRESET: an idempotent request is then sent once
 * more on a new socket, as undici does.
 */
export function openHop(hop: Hop, cancel: Cancellation, retried = false): Promise<OpenedHop> {
  return new Promise<OpenedHop>((resolve, reject) => {
    cancel.throwIfCancelled();
    const marks: Partial<Marks> & { start: number } = { start: performance.now(), reused: false };
    let req: http.ClientRequest;
    try {
      const client = hop.url.protocol === "https:" ? https : http;
      req = client.request(hop.url, { method: hop.method, headers: nodeHeaders(hop.headers), agent: hop.agent, lookup: hop.lookup });
    } catch (err) {
      return reject(toSendError(err, hop.url));
    }
    const release = cancel.onCancel((reason) => req.destroy(reason));
    let answered = false;

    req.on("socket", (socket) => {
      marks.reused = req.reusedSocket;
      if (marks.reused) return;
      socket.once("lookup", () => (marks.lookupAt ??= performance.now()));
      socket.once("connect", () => (marks.connectAt = performance.now()));
      socket.once("secureConnect", () => (marks.secureAt = performance.now()));
    });
    req.on("finish", () => (marks.sentAt = performance.now()));
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (answered) return; // the body reader reports errors after the head
      release();
      const stale = req.reusedSocket && (err.code === "ECONNRESET" || err.code === "EPIPE");
      if (stale && !retried && !cancel.reason && IDEMPOTENT.has(hop.method)) return resolve(openHop(hop, cancel, true));
      reject(cancel.reason ?? toSendError(err, hop.url));
    });
    req.on("response", (res) => {
      answered = true;
      // Until the body reader listens, an error must not go unhandled (the reader sees the destroyed stream).
      res.on("error", () => {});
      const m: Marks = { ...marks, reused: marks.reused ?? false, responseAt: performance.now() };
      resolve({ res, remoteAddress: res.socket?.remoteAddress, timings: (endAt) => timingsOf(m, endAt), release });
    });
    req.end(hop.body);
  });
}
