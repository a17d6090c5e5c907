// S3 on the stub path: /stubs/<namespace>/<bucket>/<key> where the namespace
// has an `s3.bucket` mock for <bucket> (path style, anonymous: signatures are
// not checked). Each operation first runs the engine over the bucket's mocks
// (so ttl, useLimiter, conditions, extract, webhooks and the request log work
// as for HTTP), then acts on the objects stored in the database. The mock's
// response (docs/decisions.md, "S3 on the main port"):
//   - status >= 400: every operation it answers fails with that status (an
//     outage or a denial), with its string payload or an S3 error document;
//   - a payload: the answer to GET/HEAD of a key that is not stored;
//   - headers: added to every answer (e.g. CORS); delay: before every answer.
import { XMLParser } from "fast-xml-parser";
import { looksLikeS3, mockedBuckets, s3BucketRoute, s3Operation, splitS3Path, type S3Operation, type S3RequestView } from "@/server/engine/protocols/s3";
import type { EngineResponse } from "@/server/engine/types";
import { countS3Objects, deleteS3Objects, getS3Object, headS3Object, iterateS3Keys, putS3Object, s3Limits, S3LimitError, type S3ObjectMeta, type S3StoredObject } from "@/server/services/s3-objects";
import { createHash } from "node:crypto";
import { answered, recordMiss, serve } from "@/server/serving/serve";
import {
  AwsChunkedError,
  collectListing,
  copyResultXml,
  decodeAwsChunked,
  decodeToken,
  deleteResultXml,
  httpDate,
  isAwsChunked,
  listXml,
  parseRange,
  s3Error,
  s3Xml,
  type ListParams,
  type S3ErrorInfo,
} from "./s3-wire";
import { httpCouldAnswer } from "./route-presence";
import { engineOutput, type StubAdapter, type StubContext, type StubOutput } from "./stub-context";

/** S3's content type for objects stored without one. */
const DEFAULT_CONTENT_TYPE = "binary/octet-stream";
/** S3's limit on user metadata (x-amz-meta-* names and values), in bytes. */
const MAX_METADATA_BYTES = 2048;
/** Keys per DeleteObjects request (S3's limit). */
const MAX_DELETE_KEYS = 1000;
const MAX_LIST_KEYS = 1000;
/** Headers of a stored object that the mock's response headers do not override. */
const OBJECT_HEADERS = new Set(["content-type", "content-length", "etag", "last-modified", "content-range", "accept-ranges"]);

export const s3Adapter: StubAdapter = {
  protocol: "s3",
  // Also consulted without s3 mocks: an S3 client's call to an unmocked bucket is captured as protocol s3.
  always: true,
  claims(ctx) {
    const buckets = mockedBuckets(ctx.index.indexes.s3);
    if (buckets.size > 0) {
      const target = splitS3Path(ctx.path);
      if (target && buckets.has(target.bucket)) return true;
    }
    return looksLikeS3(ctx.input.headers, ctx.query);
  },
  async serve(ctx) {
    const buckets = mockedBuckets(ctx.index.indexes.s3);
    if (buckets.size > 0) {
      const target = splitS3Path(ctx.path);
      if (target && buckets.has(target.bucket)) return serveBucket(ctx, target.bucket, target.key);
    }
    if (!looksLikeS3(ctx.input.headers, ctx.query)) return null;
    // An HTTP mock on this route keeps it, whatever the client.
    if (httpCouldAnswer(ctx)) return null;
    const target = splitS3Path(ctx.path);
    const bucket = target?.bucket ?? "";
    recordMiss(ctx, { protocol: "s3", method: ctx.input.method.toUpperCase(), body: target ? viewOf(ctx, target.bucket, target.key) : undefined });
    return s3Error({ status: 404, code: "NoSuchBucket", message: `The specified bucket does not exist: no s3 mock for bucket '${bucket}' in namespace '${ctx.namespace}'`, bucket, resource: ctx.path }, ctx.requestId, ctx.input.method);
  },
};

function viewOf(ctx: StubContext, bucket: string, key: string, extra: Partial<S3RequestView> = {}): S3RequestView {
  return { operation: s3Operation(ctx.input.method, key, ctx.query, ctx.input.headers), bucket, key, ...extra };
}

const header = (ctx: StubContext, name: string) => ctx.input.headers[name]?.[0];

type Failure = { error: S3ErrorInfo };

/** The object a PutObject carries: aws-chunked decoded, checked against the declared length and Content-MD5. */
function uploadedBytes(ctx: StubContext): Buffer | Failure {
  let bytes = ctx.bytes;
  if (isAwsChunked(ctx.input.headers)) {
    try {
      bytes = decodeAwsChunked(ctx.bytes).bytes;
    } catch (err) {
      if (err instanceof AwsChunkedError) return { error: { status: 400, code: "IncompleteBody", message: err.message } };
      throw err;
    }
    const declared = header(ctx, "x-amz-decoded-content-length");
    if (declared !== undefined && Number(declared) !== bytes.length) {
      return { error: { status: 400, code: "IncompleteBody", message: `x-amz-decoded-content-length is ${declared} but the body decodes to ${bytes.length} bytes` } };
    }
  }
  const md5 = header(ctx, "content-md5");
  if (md5 !== undefined && createHash("md5").update(bytes).digest("base64") !== md5.trim()) {
    return { error: { status: 400, code: "BadDigest", message: "The Content-MD5 you specified did not match what was received." } };
  }
  return bytes;
}

/** x-amz-meta-* request headers as stored metadata (names lower-case, without the prefix). */
function metadataOf(ctx: StubContext): Record<string, string> | Failure {
  const out: Record<string, string> = {};
  let size = 0;
  for (const name in ctx.input.headers) {
    if (!name.startsWith("x-amz-meta-")) continue;
    const value = ctx.input.headers[name].join(",");
    out[name.slice(11)] = value;
    size += name.length - 11 + Buffer.byteLength(value);
  }
  if (size > MAX_METADATA_BYTES) return { error: { status: 400, code: "MetadataTooLarge", message: `Your metadata headers exceed the maximum allowed metadata size of ${MAX_METADATA_BYTES} bytes.` } };
  return out;
}

const isFailure = (v: unknown): v is Failure => typeof v === "object" && v !== null && "error" in v && !Buffer.isBuffer(v);

async function serveBucket(ctx: StubContext, bucket: string, key: string): Promise<StubOutput> {
  const method = ctx.input.method.toUpperCase();
  const operation = s3Operation(method, key, ctx.query, ctx.input.headers);
  const resource = `/${bucket}${key ? `/${key}` : ""}`;
  const fail = (e: Omit<S3ErrorInfo, "resource" | "bucket"> & { bucket?: string }) => s3Error({ bucket, resource, ...e }, ctx.requestId, method);

  if (Buffer.byteLength(key) > s3Limits().keyBytes) return fail({ status: 400, code: "KeyTooLongError", message: `Your key is too long: at most ${s3Limits().keyBytes} bytes.`, key: key.slice(0, 100) });

  // What the mock sees ($.req, conditions): the operation, never the bytes.
  const view: S3RequestView = { operation, bucket, key };
  let upload: Buffer | undefined;
  if (operation === "PutObject") {
    const bytes = uploadedBytes(ctx);
    if (isFailure(bytes)) return fail({ ...bytes.error, key });
    upload = bytes;
    view.contentType = header(ctx, "content-type") ?? DEFAULT_CONTENT_TYPE;
    view.size = bytes.length;
  } else if (operation === "CopyObject") {
    view.copySource = header(ctx, "x-amz-copy-source");
  } else if (operation === "ListObjectsV2" || operation === "ListObjects") {
    view.prefix = ctx.query.prefix?.[0] ?? "";
  }

  const result = await serve("s3", ctx, { namespace: ctx.namespace, method: operation, path: s3BucketRoute(bucket), headers: ctx.input.headers, query: ctx.query, body: view });
  if (!result.matched) {
    recordMiss(ctx, { protocol: "s3", method, body: view });
    return fail({ status: 404, code: "NoSuchBucket", message: `No s3 mock of bucket '${bucket}' answers ${operation}${key ? ` of '${key}'` : ""} (conditions, ttl or useLimiter)` });
  }
  const { response } = result;
  let out: StubOutput;
  if (response.status >= 400) out = mockedFailure(ctx, response, operation, bucket, resource, method);
  else out = await perform(ctx, { operation, method, bucket, key, upload, response, fail });
  for (const name in response.headers) if (!OBJECT_HEADERS.has(name.toLowerCase())) out.headers[name] = response.headers[name].map((v) => v.replace(/[\r\n]+/g, " "));
  out.delayMs = response.delayMs;
  return answered(ctx, result, out.status, out, { method, body: view });
}

/** A mock whose status is an error answers every operation it matches with it (a string payload as is, else an S3 error document). */
function mockedFailure(ctx: StubContext, response: EngineResponse, operation: S3Operation, bucket: string, resource: string, method: string): StubOutput {
  if (typeof response.body === "string") {
    const out = engineOutput(response, ctx.requestId, "application/xml");
    if (method === "HEAD") out.body = "";
    return out;
  }
  const p = (response.body ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof p.code === "string" ? p.code : (STATUS_CODES[response.status] ?? "MockedError");
  const message = typeof p.message === "string" ? p.message : `The mock of bucket '${bucket}' answers ${operation} with ${response.status}`;
  return s3Error({ status: response.status, code, message, bucket, resource }, ctx.requestId, method);
}

const STATUS_CODES: Record<number, string> = { 400: "InvalidRequest", 403: "AccessDenied", 404: "NoSuchKey", 409: "OperationAborted", 500: "InternalError", 501: "NotImplemented", 503: "ServiceUnavailable", 429: "SlowDown" };

interface Operation {
  operation: S3Operation;
  method: string;
  bucket: string;
  key: string;
  upload: Buffer | undefined;
  response: EngineResponse;
  fail: (e: Omit<S3ErrorInfo, "resource" | "bucket"> & { bucket?: string }) => StubOutput;
}

function objectHeaders(meta: S3ObjectMeta, requestId: string): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {
    "Content-Type": meta.contentType,
    ETag: meta.etag,
    "Last-Modified": httpDate(meta.lastModified),
    "Accept-Ranges": "bytes",
    "x-amz-request-id": requestId,
    "X-Request-Id": requestId,
  };
  for (const [name, value] of Object.entries(meta.metadata)) headers[`x-amz-meta-${name}`] = value;
  return headers;
}

const empty = (status: number, requestId: string, headers: Record<string, string | string[]> = {}): StubOutput => ({
  status,
  headers: { "x-amz-request-id": requestId, "X-Request-Id": requestId, ...headers },
  body: "",
  delayMs: 0,
});

async function perform(ctx: StubContext, op: Operation): Promise<StubOutput> {
  const ns = ctx.index.namespaceId;
  const { bucket, key, fail } = op;
  switch (op.operation) {
    case "GetObject":
    case "HeadObject":
      return getObject(ctx, op);
    case "PutObject": {
      const metadata = metadataOf(ctx);
      if (isFailure(metadata)) return fail({ ...metadata.error, key });
      const stored = await store(ctx, bucket, key, { bytes: op.upload!, contentType: header(ctx, "content-type") ?? DEFAULT_CONTENT_TYPE, metadata }, fail);
      if ("status" in stored) return stored;
      return empty(200, ctx.requestId, { ETag: stored.etag });
    }
    case "CopyObject":
      return copyObject(ctx, op);
    case "DeleteObject":
      await deleteS3Objects(ns, bucket, [key]);
      return empty(204, ctx.requestId);
    case "DeleteObjects":
      return deleteObjects(ctx, op);
    case "ListObjectsV2":
    case "ListObjects":
      return listObjects(ctx, op);
    case "GetBucketLocation":
      // us-east-1 is written as an empty constraint.
      return s3Xml(200, '<LocationConstraint xmlns="http://s3.amazonaws.com/doc/2006-03-01/"></LocationConstraint>', ctx.requestId);
    case "HeadBucket":
      return empty(200, ctx.requestId, { "x-amz-bucket-region": "us-east-1" });
    case "CreateBucket":
      // The bucket exists as long as its mock does.
      return empty(200, ctx.requestId, { Location: `/${bucket}` });
    case "DeleteBucket":
      if ((await countS3Objects(ns, bucket)) > 0) return fail({ status: 409, code: "BucketNotEmpty", message: "The bucket you tried to delete is not empty" });
      return empty(204, ctx.requestId);
    case "NotImplemented":
      return fail({ status: 501, code: "NotImplemented", message: `This S3 operation (${op.method} ${Object.keys(ctx.query).join(", ") || "without sub-resource"}) is not served by the mock: objects, listings, copy and delete are` });
  }
}

async function store(ctx: StubContext, bucket: string, key: string, input: Parameters<typeof putS3Object>[3], fail: Operation["fail"]): Promise<S3ObjectMeta | StubOutput> {
  try {
    return await putS3Object(ctx.index.namespaceId, bucket, key, input);
  } catch (err) {
    if (!(err instanceof S3LimitError)) throw err;
    if (err.kind === "object") return fail({ status: 400, code: "EntityTooLarge", message: err.message, key });
    return fail({ status: 403, code: "QuotaExceeded", message: err.message, key });
  }
}

async function getObject(ctx: StubContext, op: Operation): Promise<StubOutput> {
  const { bucket, key, response, fail } = op;
  const head = op.operation === "HeadObject";
  const obj = head ? await headS3Object(ctx.index.namespaceId, bucket, key) : await getS3Object(ctx.index.namespaceId, bucket, key);
  if (!obj) {
    // The mock's payload stands in for objects that were never stored.
    if (response.body !== undefined) {
      const out = engineOutput(response, ctx.requestId);
      if (head) out.body = "";
      return out;
    }
    return fail({ status: 404, code: "NoSuchKey", message: "The specified key does not exist.", key });
  }
  const headers = objectHeaders(obj, ctx.requestId);
  const ifNoneMatch = header(ctx, "if-none-match");
  const ifMatch = header(ctx, "if-match");
  if (ifMatch !== undefined && !etagListHas(ifMatch, obj.etag)) return fail({ status: 412, code: "PreconditionFailed", message: "At least one of the pre-conditions you specified did not hold", key });
  if (ifNoneMatch !== undefined && etagListHas(ifNoneMatch, obj.etag)) return empty(304, ctx.requestId, { ETag: obj.etag, "Last-Modified": headers["Last-Modified"] });
  // GetObject's response-* query parameters override the stored headers.
  for (const [param, name] of RESPONSE_OVERRIDES) {
    const v = ctx.query[param]?.[0];
    if (v !== undefined) headers[name] = v.replace(/[\r\n]+/g, " ");
  }
  const range = parseRange(header(ctx, "range"), obj.size);
  if (range === "unsatisfiable") {
    const out = fail({ status: 416, code: "InvalidRange", message: "The requested range is not satisfiable", key });
    out.headers["Content-Range"] = `bytes */${obj.size}`;
    return out;
  }
  if (head) {
    // A HEAD answer's Content-Length is the object's (the fast path keeps an explicit one).
    return { status: 200, headers: { ...headers, "Content-Length": String(obj.size) }, body: "", delayMs: 0 };
  }
  const { bytes } = obj as S3StoredObject;
  if (range) {
    headers["Content-Range"] = `bytes ${range.start}-${range.end}/${obj.size}`;
    return { status: 206, headers, body: bytes.subarray(range.start, range.end + 1), delayMs: 0 };
  }
  return { status: 200, headers, body: bytes, delayMs: 0 };
}

const RESPONSE_OVERRIDES: [string, string][] = [
  ["response-content-type", "Content-Type"],
  ["response-content-disposition", "Content-Disposition"],
  ["response-content-encoding", "Content-Encoding"],
  ["response-content-language", "Content-Language"],
  ["response-cache-control", "Cache-Control"],
  ["response-expires", "Expires"],
];

function etagListHas(list: string, etag: string): boolean {
  return list.split(",").some((t) => {
    const v = t.trim().replace(/^W\//, "");
    return v === "*" || v === etag || `"${v}"` === etag;
  });
}

async function copyObject(ctx: StubContext, op: Operation): Promise<StubOutput> {
  const { bucket, key, fail } = op;
  const raw = header(ctx, "x-amz-copy-source") ?? "";
  let source: string;
  try {
    source = decodeURIComponent(raw.split("?")[0]).replace(/^\//, "");
  } catch {
    return fail({ status: 400, code: "InvalidArgument", message: "x-amz-copy-source is not URL-encoded correctly", key });
  }
  const slash = source.indexOf("/");
  const srcBucket = slash < 0 ? source : source.slice(0, slash);
  const srcKey = slash < 0 ? "" : source.slice(slash + 1);
  if (!srcKey) return fail({ status: 400, code: "InvalidArgument", message: "x-amz-copy-source must name a bucket and a key", key });
  if (!mockedBuckets(ctx.index.indexes.s3).has(srcBucket)) return fail({ status: 404, code: "NoSuchBucket", message: `The source bucket '${srcBucket}' has no s3 mock`, bucket: srcBucket });
  const src = await getS3Object(ctx.index.namespaceId, srcBucket, srcKey);
  if (!src) return fail({ status: 404, code: "NoSuchKey", message: "The specified key does not exist.", bucket: srcBucket, key: srcKey });
  const replace = header(ctx, "x-amz-metadata-directive")?.toUpperCase() === "REPLACE";
  let metadata = src.metadata;
  if (replace) {
    const m = metadataOf(ctx);
    if (isFailure(m)) return fail({ ...m.error, key });
    metadata = m;
  }
  const contentType = replace ? (header(ctx, "content-type") ?? src.contentType) : src.contentType;
  const stored = await store(ctx, bucket, key, { bytes: src.bytes, contentType, metadata }, fail);
  if ("status" in stored) return stored;
  return s3Xml(200, copyResultXml(stored.etag, stored.lastModified), ctx.requestId);
}

const deleteParser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: false, processEntities: true, isArray: (name) => name === "Object" });

async function deleteObjects(ctx: StubContext, op: Operation): Promise<StubOutput> {
  const { bucket, fail } = op;
  let keys: string[];
  let quiet = false;
  try {
    const doc = deleteParser.parse(ctx.text) as { Delete?: { Object?: { Key?: unknown }[]; Quiet?: unknown } };
    const objects = doc.Delete?.Object;
    if (!doc.Delete || !Array.isArray(objects)) throw new Error("no Delete/Object elements");
    keys = objects.map((o) => {
      if (typeof o?.Key !== "string" || o.Key === "") throw new Error("an Object without Key");
      return o.Key;
    });
    quiet = String(doc.Delete.Quiet ?? "").trim().toLowerCase() === "true";
  } catch {
    return fail({ status: 400, code: "MalformedXML", message: "The XML you provided was not well-formed or did not validate against our published schema" });
  }
  if (keys.length > MAX_DELETE_KEYS) return fail({ status: 400, code: "MalformedXML", message: `At most ${MAX_DELETE_KEYS} keys per request` });
  await deleteS3Objects(ctx.index.namespaceId, bucket, keys);
  return s3Xml(200, deleteResultXml(keys, quiet, []), ctx.requestId);
}

async function listObjects(ctx: StubContext, op: Operation): Promise<StubOutput> {
  const { bucket, fail } = op;
  const q = (name: string) => ctx.query[name]?.[0];
  const version = op.operation === "ListObjectsV2" ? 2 : 1;
  const maxText = q("max-keys");
  const maxKeys = maxText === undefined ? MAX_LIST_KEYS : Number(maxText);
  if (!Number.isInteger(maxKeys) || maxKeys < 0) return fail({ status: 400, code: "InvalidArgument", message: "max-keys must be a non-negative integer" });
  const encodingType = q("encoding-type");
  if (encodingType !== undefined && encodingType !== "url") return fail({ status: 400, code: "InvalidArgument", message: "Invalid Encoding Method specified in Request" });
  const params: ListParams = {
    version,
    bucket,
    prefix: q("prefix") ?? "",
    delimiter: q("delimiter") ?? "",
    maxKeys: Math.min(maxKeys, MAX_LIST_KEYS),
    token: version === 2 ? q("continuation-token") : q("marker"),
    startAfter: version === 2 ? q("start-after") : undefined,
    urlEncode: encodingType === "url",
  };
  let after: string | undefined;
  if (version === 2 && params.token !== undefined) {
    const decoded = decodeToken(params.token);
    if (decoded === null) return fail({ status: 400, code: "InvalidArgument", message: "The continuation token provided is incorrect" });
    after = decoded;
  } else {
    after = version === 2 ? params.startAfter : params.token || undefined;
  }
  const rows = iterateS3Keys(ctx.index.namespaceId, bucket, params.prefix, after);
  const listing = await collectListing(rows, { prefix: params.prefix, delimiter: params.delimiter, maxKeys: params.maxKeys, after });
  // A page that stops early leaves the generator suspended; return() ends it.
  await rows.return(undefined);
  return s3Xml(200, listXml(params, listing), ctx.requestId);
}
