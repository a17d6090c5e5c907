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

export function readStubBody(req: IncomingMessage, limit = stubBodyLimit()): Promise<Buffer> {
  if (req.method === "GET" || req.method === "HEAD") {
    // Most stub calls carry no body: skip the stream machinery for them.
    if (!req.headers["content-length"] && !req.headers["transfer-encoding"]) {
      req.resume();
      return Promise.resolve(EMPTY);
    }
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        reject(new StubBodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on("error", reject);
  });
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
