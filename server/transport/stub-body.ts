import type { IncomingMessage } from "node:http";

export class StubBodyTooLarge extends Error {
  constructor(limit: number) {
    super(`Request body is larger than the stub limit of ${limit} bytes`);
  }
}

let limit: number | undefined;

/** STUB_MAX_BODY_BYTES (default 10 MiB), read once: each process.env read is a call into C++, too dear per request. */
export function stubBodyLimit(): number {
  return (limit ??= Number(process.env.STUB_MAX_BODY_BYTES ?? 10 * 1024 * 1024));
}

const EMPTY = Buffer.alloc(0);

/**
 * Collects a request body up to `limit` bytes and calls back once: with the
 * bytes, or with StubBodyTooLarge / the stream's error. A callback, not a
 * promise: this runs for every stub request with a body.
 */
export function collectStubBody(req: IncomingMessage, limit: number, done: (err: Error | undefined, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  // With a Content-Length, the body is whole when that many bytes came: the answer need not wait
  // for the stream's 'end', which comes a tick later through the stream machinery.
  const header = req.headers["content-length"];
  const expected = header !== undefined && /^\d+$/.test(header) ? Number(header) : -1;
  let finished = false;
  const finish = (err: Error | undefined, body: Buffer) => {
    if (finished) return;
    finished = true;
    done(err, body);
  };
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      req.removeAllListeners("data");
      req.resume();
      finish(new StubBodyTooLarge(limit), EMPTY);
      return;
    }
    chunks.push(chunk);
    if (size === expected) finish(undefined, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  });
  req.on("end", () => finish(undefined, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
  req.on("error", (err) => finish(err, EMPTY));
}

/** JSON bodies become values, form bodies objects; anything else stays text (docs/decisions.md). */
export function parseStubBody(raw: string, contentType: string | undefined): unknown {
  if (raw === "") return undefined;
  const type = (contentType ?? "").toLowerCase();
  if (type.includes("application/x-www-form-urlencoded")) {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(raw)) {
      const prev = out[k];
      out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    return out;
  }
  if (type.includes("json") || type === "" || /^\s*[[{"]/.test(raw)) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}
