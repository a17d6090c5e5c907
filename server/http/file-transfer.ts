// Whole files over the management API. An upload is either the raw request
// body (the body is the file; its Content-Type is kept) or multipart/form-data
// with the file in a part named `file` (what a browser's file input and
// `curl -F file=@x` send). Either way the body is read against a byte limit,
// so an oversized or endless body is refused with 413 before it fills memory.
// Downloads carry headers that stop a browser from running uploaded content
// (an HTML "template" served inline must not script the management UI).
import type { z } from "zod";
import { errors } from "@/server/errors";
import { readBodyBytes, tooLarge } from "./read-body";

/** Room for multipart boundaries and part headers around the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const DEFAULT_CONTENT_TYPE = "application/octet-stream";
// type/subtype with optional parameters (RFC 9110 token characters).
const MEDIA_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;.*)?$/;

export interface Upload {
  bytes: Buffer;
  contentType: string;
  /** From the name header (raw uploads) or the part's filename (multipart); null when neither gave one. */
  fileName: string | null;
  /** A multipart text part `namespace` (how the Java client names it), for uploadNamespace; null otherwise. */
  namespace: string | null;
}

function readBytes(req: Request, limit: number, fileLimit: number): Promise<Buffer> {
  return readBodyBytes(req, limit, fileLimit, "The file");
}

function checkedContentType(value: string, location: "header" | "body", field: string): string {
  if (value.length > 200 || !MEDIA_TYPE.test(value)) {
    throw errors.validation("Invalid content type", [{ location, field, message: "must be a media type such as text/plain or application/json" }]);
  }
  return value;
}

export interface UploadOptions {
  limitBytes: number;
  /**
   * When the upload must carry its own file name: a raw upload takes it from
   * this header (percent-encoded UTF-8 is decoded, as header values cannot
   * carry it otherwise), a multipart one from the part's filename unless the
   * header is given. Checked with `schema`; a 400 names where it came from.
   */
  name?: { header: string; schema: z.ZodType<string> };
}

/** Reads an upload of at most `limitBytes`. */
export async function readUpload(req: Request, opts: UploadOptions & Required<Pick<UploadOptions, "name">>): Promise<Upload & { fileName: string }>;
export async function readUpload(req: Request, opts: UploadOptions): Promise<Upload>;
export async function readUpload(req: Request, opts: UploadOptions): Promise<Upload> {
  const upload = await readFile(req, opts.limitBytes, opts.name?.header);
  if (!opts.name) return upload;
  const fromHeader = req.headers.has(opts.name.header);
  const [location, field] = fromHeader || upload.fileName === null ? (["header", opts.name.header] as const) : (["body", "file"] as const);
  if (upload.fileName === null) {
    const message = `required: name the file with this header, or send multipart/form-data whose part 'file' has a filename`;
    throw errors.validation(`Missing header '${opts.name.header}'`, [{ location, field, message }]);
  }
  return { ...upload, fileName: parseField(opts.name.schema, upload.fileName, location, field) };
}

async function readFile(req: Request, limitBytes: number, nameHeader: string | undefined): Promise<Upload> {
  const type = req.headers.get("content-type")?.trim() || null;
  const headerName = nameHeader ? decodedHeader(req, nameHeader) : null;
  if (type && /^multipart\/form-data\b/i.test(type)) {
    const body = await readBytes(req, limitBytes + MULTIPART_OVERHEAD_BYTES, limitBytes);
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { "content-type": type } }).formData();
    } catch (err) {
      throw errors.validation("Malformed multipart body", [{ location: "body", field: "", message: (err as Error).message }]);
    }
    const part = form.get("file");
    if (!(part instanceof Blob)) {
      const message = part === null ? "a part named 'file' is required" : "must be a file part (with a filename), e.g. curl -F file=@path";
      throw errors.validation(`Invalid body field 'file': ${message}`, [{ location: "body", field: "file", message }]);
    }
    if (part.size > limitBytes) throw tooLarge(limitBytes, "The file");
    const partName = "name" in part && typeof part.name === "string" && part.name !== "" ? part.name : null;
    const namespacePart = form.get("namespace");
    return {
      bytes: Buffer.from(await part.arrayBuffer()),
      contentType: part.type ? checkedContentType(part.type, "body", "file") : DEFAULT_CONTENT_TYPE,
      fileName: headerName ?? partName,
      namespace: typeof namespacePart === "string" ? namespacePart : null,
    };
  }
  return {
    bytes: await readBytes(req, limitBytes, limitBytes),
    contentType: type ? checkedContentType(type, "header", "content-type") : DEFAULT_CONTENT_TYPE,
    fileName: headerName,
    namespace: null,
  };
}

function decodedHeader(req: Request, name: string): string | null {
  const raw = req.headers.get(name);
  if (raw === null) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw errors.validation(`Invalid header '${name}'`, [{ location: "header", field: name, message: "malformed percent-encoding" }]);
  }
}

/** Parses a value the route took from a header or an upload, naming the field in a 400. */
export function parseField<T>(schema: z.ZodType<T>, value: unknown, location: "header" | "body", field: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues[0]?.message ?? "invalid";
  throw errors.validation(`Invalid ${location} field '${field}': ${message}`, result.error.issues.map((i) => ({ location, field, message: i.message })));
}

/** A file download; `inline` lets a browser show it, `attachment` saves it. */
export function fileResponse(file: { bytes: Uint8Array; contentType: string; fileName: string }, disposition: "inline" | "attachment"): Response {
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.bytes.byteLength),
      "Content-Disposition": contentDisposition(disposition, file.fileName),
      "X-Content-Type-Options": "nosniff",
      // A unique origin with no script or network access, whatever the content type says.
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "no-store",
    },
  });
}

/** RFC 6266: an ASCII fallback for old clients plus the exact UTF-8 name. */
export function contentDisposition(disposition: string, fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const exact = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}
