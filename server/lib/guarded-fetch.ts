// A WHATWG `fetch` under the outbound policy, for libraries that take one (the
// MCP SDK's client transports): every call checks its URL before connecting
// and connects through the guard's lookup (server/lib/ssrf.ts), so a
// redirect the library follows is a new call, checked again. It never follows
// redirects itself (a 3xx is returned as is), and counts the bytes of every
// response body together against one cap, so a server streaming without end
// is cut off. Bodies stream (an SSE answer is read as it arrives).
import http from "node:http";
import https from "node:https";
import { assertAllowedTarget, BlockedTargetError, guardedAgent, safeLookup } from "./ssrf";

export class ResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the server sent more than ${limit} bytes`);
    this.name = "ResponseTooLargeError";
  }
}

export interface GuardedFetch {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** The first refusal of the policy, whichever call met it (libraries may wrap or swallow the error they get). */
  blocked?: BlockedTargetError;
  /** Set once the bodies went over the cap. */
  tooLarge?: ResponseTooLargeError;
  /** Ends every request still open (a stream the library left open, a deadline) and refuses new ones. */
  close(): void;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

function bodyOf(body: RequestInit["body"]): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof URLSearchParams) return body.toString();
  throw new TypeError("guarded fetch: only string, byte and URLSearchParams bodies are sent");
}

/**
 * The response body as a web stream, read as the consumer pulls (backpressure
 * through pause/resume). Written by hand rather than with Readable.toWeb:
 * Node 20's adapter throws on data arriving after the consumer cancelled (an
 * EventSource closing its stream does). `count` answers an error once the
 * bytes so far are over the cap.
 */
function bodyStream(res: http.IncomingMessage, req: http.ClientRequest, host: string, count: (size: number) => Error | undefined): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (err: Error) => {
        if (done) return;
        done = true;
        controller.error(err);
        // The reader has the error; the sockets just close.
        res.destroy();
        req.destroy();
      };
      res.on("data", (chunk: Buffer) => {
        if (done) return;
        const over = count(chunk.length);
        if (over) return fail(over);
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) res.pause();
      });
      res.on("end", () => {
        if (done) return;
        done = true;
        controller.close();
      });
      res.on("error", fail);
      res.on("close", () => {
        if (!res.complete) fail(new Error(`${host} closed the connection mid-answer`));
      });
    },
    pull() {
      res.resume();
    },
    cancel() {
      done = true;
      res.destroy();
    },
  });
}

export function createGuardedFetch(opts: { maxBytes: number }): GuardedFetch {
  let received = 0;
  let closed = false;
  const open = new Set<http.ClientRequest>();
  const state: GuardedFetch = {
    close() {
      closed = true;
      for (const req of open) req.destroy(new Error("the session is over"));
    },
    fetch: (input, init) =>
      new Promise<Response>((resolve, reject) => {
        const url = new URL(input instanceof Request ? input.url : input);
        const signal = init?.signal ?? undefined;
        if (signal?.aborted) return reject(signal.reason);
        if (closed) return reject(new Error("the session is over"));
        try {
          assertAllowedTarget(url);
        } catch (err) {
          if (err instanceof BlockedTargetError) state.blocked ??= err;
          return reject(err);
        }
        const method = (init?.method ?? "GET").toUpperCase();
        const body = bodyOf(init?.body);
        const headers = Object.fromEntries(new Headers(init?.headers).entries());
        const client = url.protocol === "https:" ? https : http;
        const req = client.request(url, { method, headers, agent: guardedAgent(url.protocol), lookup: safeLookup }, (res) => {
          const status = res.statusCode ?? 0;
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) responseHeaders.append(name, v);
          if (status < 200 || status > 599) {
            res.destroy();
            return reject(new Error(`${url.host} answered HTTP status ${status}`));
          }
          if (NULL_BODY.has(status) || method === "HEAD") {
            res.resume();
            return resolve(new Response(null, { status, statusText: res.statusMessage, headers: responseHeaders }));
          }
          resolve(new Response(bodyStream(res, req, url.host, (size) => {
            received += size;
            if (received <= opts.maxBytes) return undefined;
            return (state.tooLarge ??= new ResponseTooLargeError(opts.maxBytes));
          }), { status, statusText: res.statusMessage, headers: responseHeaders }));
        });
        req.on("error", (err) => {
          if (err instanceof BlockedTargetError) state.blocked ??= err;
          reject(err);
        });
        const onAbort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
        signal?.addEventListener("abort", onAbort, { once: true });
        open.add(req);
        req.on("close", () => {
          open.delete(req);
          signal?.removeEventListener("abort", onAbort);
        });
        req.end(body);
      }),
  };
  return state;
}
