import { AppError, errors } from "@/server/errors";

/** Reads a request body up to `limit` bytes; 413 beyond it, whatever Content-Length claims. */
export async function readBodyText(req: Request, limit: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(limit: number) {
  return new AppError("payload_too_large", `Request body is larger than the limit of ${limit} bytes`, {
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
  let nulAt: string | undefined;
  let parsed: unknown;
  try {
    // PostgreSQL text cannot hold U+0000; refuse it here instead of failing at the database.
    parsed = JSON.parse(text, (key, value) => {
      if (nulAt === undefined && ((typeof value === "string" && value.includes("\0")) || key.includes("\0"))) nulAt = key;
      return value;
    });
  } catch (err) {
    throw errors.validation("Malformed JSON body", [{ location: "body", field: "", message: (err as Error).message }]);
  }
  if (nulAt !== undefined) {
    throw errors.validation("Text may not contain NUL characters", [{ location: "body", field: nulAt, message: "contains U+0000" }]);
  }
  return parsed;
}
