// Request bodies of the /api/v1 route handlers: size-limited reads, and JSON
// parsing that refuses what PostgreSQL cannot store.
import { AppError, errors } from "@/server/errors";
import { unstorableText } from "@/server/lib/storable-text";

/**
 * Reads a request body up to `limit` bytes; 413 beyond it, whatever
 * Content-Length claims. `reportedLimit` is the limit named in the error (a
 * file limit may be smaller than the body limit that leaves room for framing).
 */
export async function readBodyBytes(req: Request, limit: number, reportedLimit = limit, what = "Request body"): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(reportedLimit, what);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(reportedLimit, what);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export async function readBodyText(req: Request, limit: number): Promise<string> {
  return (await readBodyBytes(req, limit)).toString("utf8");
}

export function tooLarge(limit: number, what = "Request body") {
  return new AppError("payload_too_large", `${what} is larger than the limit of ${limit} bytes`, {
    status: 413,
    details: { limitBytes: limit },
  });
}

export async function readJsonBody(req: Request, limit: number): Promise<unknown> {
  const type = req.headers.get("content-type");
  const text = await readBodyText(req, limit);
  if (text.trim() === "") return undefined;
  if (type && !/^application\/([\w.+-]+\+)?json\b/i.test(type) && !/^text\/plain\b/i.test(type)) {
    throw errors.validation("Content-Type must be application/json", [{ location: "header", field: "content-type", message: `got ${type}` }]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw errors.validation("Malformed JSON body", [{ location: "body", field: "", message: (err as Error).message }]);
  }
  const unstorable = unstorableText(parsed);
  if (unstorable) throw errors.validation(unstorable.error, [{ location: "body", field: unstorable.field, message: unstorable.message }]);
  return parsed;
}
