// S3's wire formats, as the AWS SDKs speak them: aws-chunked request bodies,
// Range headers, XML answers (errors, listings, delete and copy results) and
// the opaque continuation token of ListObjectsV2. Pure functions.
import type { StubOutput } from "./stub-context";

export const S3_XMLNS = "http://s3.amazonaws.com/doc/2006-03-01/";

/** Text for XML element content and attributes; characters XML 1.0 cannot carry become U+FFFD. */
export function xmlText(value: string): string {
  return value.replace(/[&<>"'\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) => XML_ENTITIES[c] ?? "\ufffd");
}
const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** RFC 7231 date for Last-Modified. */
export function httpDate(d: Date): string {
  return d.toUTCString();
}

/** ISO 8601 with milliseconds, as S3 writes LastModified in XML. */
export function xmlDate(d: Date): string {
  return d.toISOString();
}

// ---------------------------------------------------------------------------
// aws-chunked

export class AwsChunkedError extends Error {}

/**
 * Whether the body is aws-chunked: `Content-Encoding: aws-chunked` or a
 * STREAMING-* payload hash (SigV4 streaming, with or without trailer).
 */
export function isAwsChunked(headers: Record<string, string[]>): boolean {
  const enc = headers["content-encoding"]?.join(",").toLowerCase() ?? "";
  if (enc.split(",").some((e) => e.trim() === "aws-chunked")) return true;
  return (headers["x-amz-content-sha256"]?.[0] ?? "").startsWith("STREAMING-");
}

/**
 * The payload of an aws-chunked body: `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n`
 * repeated, a zero-size chunk, then optional trailer lines (e.g. a checksum)
 * and an empty line. Signatures are not checked (the mock is anonymous).
 */
export function decodeAwsChunked(body: Buffer): { bytes: Buffer; trailers: Record<string, string> } {
  const parts: Buffer[] = [];
  const trailers: Record<string, string> = {};
  let pos = 0;
  const line = (): string => {
    const end = body.indexOf("\r\n", pos, "latin1");
    if (end < 0) throw new AwsChunkedError("aws-chunked body: a chunk header is not terminated by CRLF");
    const text = body.toString("latin1", pos, end);
    pos = end + 2;
    return text;
  };
  for (;;) {
    const header = line();
    const sizeText = header.split(";")[0].trim();
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) throw new AwsChunkedError(`aws-chunked body: '${header.slice(0, 40)}' is not a chunk size`);
    const size = parseInt(sizeText, 16);
    if (size === 0) break;
    if (pos + size > body.length) throw new AwsChunkedError("aws-chunked body: a chunk is shorter than its declared size");
    parts.push(body.subarray(pos, pos + size));
    pos += size;
    if (body.toString("latin1", pos, pos + 2) !== "\r\n") throw new AwsChunkedError("aws-chunked body: a chunk is not followed by CRLF");
    pos += 2;
  }
  // Trailers: "name:value" lines up to an empty line or the end of the body.
  while (pos < body.length) {
    const end = body.indexOf("\r\n", pos, "latin1");
    const text = body.toString("latin1", pos, end < 0 ? body.length : end);
    pos = end < 0 ? body.length : end + 2;
    if (text === "") break;
    const colon = text.indexOf(":");
    if (colon > 0) trailers[text.slice(0, colon).trim().toLowerCase()] = text.slice(colon + 1).trim();
  }
  return { bytes: parts.length === 1 ? parts[0] : Buffer.concat(parts), trailers };
}

// ---------------------------------------------------------------------------
// Range

/**
 * A single `bytes=` range over an object of `size` bytes: inclusive start and
 * end, "unsatisfiable", or null to serve the whole object (no header, a form
 * S3 ignores such as several ranges).
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | "unsatisfiable" | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0) return "unsatisfiable";
    return size === 0 ? "unsatisfiable" : { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  if (start >= size) return "unsatisfiable";
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (end < start) return null;
  return { start, end };
}

// ---------------------------------------------------------------------------
// XML answers

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

export function s3Xml(status: number, xml: string, requestId: string, extra: Record<string, string> = {}): StubOutput {
  return { status, headers: { "Content-Type": "application/xml", "x-amz-request-id": requestId, "X-Request-Id": requestId, ...extra }, body: XML_HEAD + xml, delayMs: 0 };
}

export interface S3ErrorInfo {
  status: number;
  code: string;
  message: string;
  bucket?: string;
  key?: string;
  resource?: string;
}

/** An S3 error document; HEAD answers carry no body, so the status and x-amz-error-code header say it. */
export function s3Error(e: S3ErrorInfo, requestId: string, method = "GET"): StubOutput {
  const fields = [
    `<Code>${xmlText(e.code)}</Code>`,
    `<Message>${xmlText(e.message)}</Message>`,
    e.bucket !== undefined ? `<BucketName>${xmlText(e.bucket)}</BucketName>` : "",
    e.key !== undefined ? `<Key>${xmlText(e.key)}</Key>` : "",
    e.resource !== undefined ? `<Resource>${xmlText(e.resource)}</Resource>` : "",
    `<RequestId>${xmlText(requestId)}</RequestId>`,
  ].join("");
  const out = s3Xml(e.status, `<Error>${fields}</Error>`, requestId, { "x-amz-error-code": e.code });
  if (method.toUpperCase() === "HEAD") out.body = "";
  return out;
}

export interface ListedObject {
  key: string;
  size: number;
  etag: string;
  lastModified: Date;
}

export interface Listing {
  objects: ListedObject[];
  commonPrefixes: string[];
  isTruncated: boolean;
  /** The last key or common prefix returned: where the next page starts. */
  last?: string;
}

export interface ListParams {
  version: 1 | 2;
  bucket: string;
  prefix: string;
  delimiter: string;
  maxKeys: number;
  /** V2: continuation-token as received; V1: marker. */
  token?: string;
  startAfter?: string;
  /** encoding-type=url: keys and prefixes URL-encoded (for keys XML cannot carry). */
  urlEncode: boolean;
}

export function listXml(p: ListParams, l: Listing): string {
  const enc = (s: string) => xmlText(p.urlEncode ? encodeURIComponent(s).replace(/%2F/g, "/") : s);
  const parts: string[] = [`<ListBucketResult xmlns="${S3_XMLNS}">`, `<Name>${xmlText(p.bucket)}</Name>`, `<Prefix>${enc(p.prefix)}</Prefix>`];
  if (p.version === 2) {
    if (p.token !== undefined) parts.push(`<ContinuationToken>${xmlText(p.token)}</ContinuationToken>`);
    if (p.startAfter !== undefined) parts.push(`<StartAfter>${enc(p.startAfter)}</StartAfter>`);
    parts.push(`<KeyCount>${l.objects.length + l.commonPrefixes.length}</KeyCount>`);
  } else {
    parts.push(`<Marker>${enc(p.token ?? "")}</Marker>`);
  }
  parts.push(`<MaxKeys>${p.maxKeys}</MaxKeys>`);
  if (p.delimiter) parts.push(`<Delimiter>${enc(p.delimiter)}</Delimiter>`);
  if (p.urlEncode) parts.push("<EncodingType>url</EncodingType>");
  parts.push(`<IsTruncated>${l.isTruncated}</IsTruncated>`);
  if (l.isTruncated && l.last !== undefined) {
    if (p.version === 2) parts.push(`<NextContinuationToken>${encodeToken(l.last)}</NextContinuationToken>`);
    else if (p.delimiter) parts.push(`<NextMarker>${enc(l.last)}</NextMarker>`);
  }
  for (const o of l.objects) {
    parts.push(`<Contents><Key>${enc(o.key)}</Key><LastModified>${xmlDate(o.lastModified)}</LastModified><ETag>${xmlText(o.etag)}</ETag><Size>${o.size}</Size><StorageClass>STANDARD</StorageClass></Contents>`);
  }
  for (const cp of l.commonPrefixes) parts.push(`<CommonPrefixes><Prefix>${enc(cp)}</Prefix></CommonPrefixes>`);
  parts.push("</ListBucketResult>");
  return parts.join("");
}

/** The continuation token: the base64url of where the page ended. Opaque to clients, as S3's. */
export function encodeToken(last: string): string {
  return Buffer.from(last, "utf8").toString("base64url");
}

export function decodeToken(token: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(token)) return null;
  return Buffer.from(token, "base64url").toString("utf8");
}

/** Byte-wise (UTF-8) order, the order S3 lists keys in; JavaScript's `<` compares UTF-16 units. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/**
 * One page of a listing from keys in byte order that start with `prefix` and
 * sort after `after`: with a delimiter, keys with the delimiter after the
 * prefix roll up into a common prefix (counted once against max-keys); an item
 * (key or common prefix) not after `after` is skipped, so a page that ended on
 * a common prefix resumes past all of its keys.
 */
export async function collectListing(rows: AsyncIterable<ListedObject>, o: { prefix: string; delimiter: string; maxKeys: number; after?: string }): Promise<Listing> {
  const objects: ListedObject[] = [];
  const commonPrefixes: string[] = [];
  let last: string | undefined;
  let count = 0;
  for await (const row of rows) {
    let item = row.key;
    let isPrefix = false;
    if (o.delimiter) {
      const at = row.key.indexOf(o.delimiter, o.prefix.length);
      if (at >= 0) {
        item = row.key.slice(0, at + o.delimiter.length);
        isPrefix = true;
      }
    }
    if (o.after !== undefined && compareKeys(item, o.after) <= 0) continue;
    if (isPrefix && commonPrefixes[commonPrefixes.length - 1] === item) continue;
    if (count === o.maxKeys) return { objects, commonPrefixes, isTruncated: true, last };
    if (isPrefix) commonPrefixes.push(item);
    else objects.push(row);
    last = item;
    count++;
  }
  return { objects, commonPrefixes, isTruncated: false, last };
}

export function deleteResultXml(deleted: string[], quiet: boolean, errors: { key: string; code: string; message: string }[]): string {
  const parts = [`<DeleteResult xmlns="${S3_XMLNS}">`];
  if (!quiet) for (const k of deleted) parts.push(`<Deleted><Key>${xmlText(k)}</Key></Deleted>`);
  for (const e of errors) parts.push(`<Error><Key>${xmlText(e.key)}</Key><Code>${xmlText(e.code)}</Code><Message>${xmlText(e.message)}</Message></Error>`);
  parts.push("</DeleteResult>");
  return parts.join("");
}

export function copyResultXml(etag: string, lastModified: Date): string {
  return `<CopyObjectResult xmlns="${S3_XMLNS}"><LastModified>${xmlDate(lastModified)}</LastModified><ETag>${xmlText(etag)}</ETag></CopyObjectResult>`;
}
