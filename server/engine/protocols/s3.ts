// S3 mocks: an `s3.bucket` mock makes /stubs/<namespace>/<bucket>/… an S3
// bucket (path style). Every operation on it runs the engine over the
// bucket's mocks (route "/<bucket>", any selector), so ttl, useLimiter,
// priority, conditions, extract and webhooks work as for HTTP; conditions and
// `$.req` see the operation described by `S3RequestView`, never the bytes.
// The objects themselves live in the database (server/services/s3-objects.ts).
import type { CompiledMock } from "../compiled-mock";
import type { RouteIndex } from "../route-index";
import type { Placer } from "./placement";

export const placeS3: Placer = (def) => {
  const bucket = def.s3?.bucket;
  // A bucket name with "/" could never be the first path segment; ":x" would be a route parameter.
  if (!bucket || bucket.includes("/") || bucket.startsWith(":")) return null;
  return { route: s3BucketRoute(bucket), selector: null, conditions: { conditions: def.s3?.conditions } };
};

/** The engine path of every operation on a bucket (keys are not routes: any key of the bucket is served by its mocks). */
export function s3BucketRoute(bucket: string): string {
  return `/${encodeURIComponent(bucket)}`;
}

const buckets = new WeakMap<RouteIndex<CompiledMock>, Set<string>>();

/** Names of the mocked buckets of an index; computed once per index version. */
export function mockedBuckets(index: RouteIndex<CompiledMock> | undefined): Set<string> {
  if (!index) return EMPTY;
  let set = buckets.get(index);
  if (!set) {
    set = new Set();
    for (const m of index.all()) if (m.def.s3) set.add(m.def.s3.bucket);
    buckets.set(index, set);
  }
  return set;
}
const EMPTY = new Set<string>();

/** "/<bucket>/<key…>" of the stub path; the key is decoded and may be "" (bucket-level request). */
export function splitS3Path(path: string): { bucket: string; key: string } | null {
  if (path.length < 2) return null;
  const slash = path.indexOf("/", 1);
  const rawBucket = slash < 0 ? path.slice(1) : path.slice(1, slash);
  const rawKey = slash < 0 ? "" : path.slice(slash + 1);
  const bucket = decodeOrNull(rawBucket);
  const key = decodeOrNull(rawKey);
  if (bucket === null || key === null || bucket === "") return null;
  return { bucket, key };
}

function decodeOrNull(s: string): string | null {
  if (!s.includes("%")) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/**
 * Whether a request looks like an S3 client's: AWS Signature V4 (header or
 * presigned query) or the x-amz-content-sha256 / x-amz-date headers every SDK
 * sends. Used to capture calls to unmocked buckets with protocol "s3".
 */
export function looksLikeS3(headers: Record<string, string[]>, query: Record<string, string[]>): boolean {
  if (headers["x-amz-content-sha256"] || headers["x-amz-date"]) return true;
  const auth = headers.authorization?.[0];
  if (auth && (auth.startsWith("AWS4-HMAC-SHA256") || auth.startsWith("AWS "))) return true;
  return query["X-Amz-Algorithm"] !== undefined;
}

export type S3Operation =
  | "ListObjectsV2"
  | "ListObjects"
  | "GetBucketLocation"
  | "HeadBucket"
  | "CreateBucket"
  | "DeleteBucket"
  | "DeleteObjects"
  | "GetObject"
  | "HeadObject"
  | "PutObject"
  | "CopyObject"
  | "DeleteObject"
  | "NotImplemented";

/** Sub-resources this mock does not serve (multipart uploads, ACLs, tagging, versioning, bucket configuration…). */
const UNSERVED = new Set([
  "acl",
  "tagging",
  "uploads",
  "uploadId",
  "versioning",
  "versions",
  "policy",
  "policyStatus",
  "cors",
  "lifecycle",
  "website",
  "replication",
  "encryption",
  "notification",
  "logging",
  "accelerate",
  "requestPayment",
  "object-lock",
  "retention",
  "legal-hold",
  "restore",
  "select",
  "torrent",
  "attributes",
  "inventory",
  "metrics",
  "analytics",
  "intelligent-tiering",
  "ownershipControls",
  "publicAccessBlock",
  "session",
  "renameObject",
]);

/** The S3 operation of a request on a mocked bucket (query `x-id` that SDKs add is ignored; the method and sub-resources decide). */
export function s3Operation(method: string, key: string, query: Record<string, string[]>, headers: Record<string, string[]>): S3Operation {
  for (const name in query) if (UNSERVED.has(name)) return "NotImplemented";
  const m = method.toUpperCase();
  if (key === "") {
    if (m === "GET") {
      if (query["list-type"]?.[0] === "2") return "ListObjectsV2";
      if (query.location !== undefined) return "GetBucketLocation";
      return "ListObjects";
    }
    if (m === "HEAD") return "HeadBucket";
    if (m === "PUT") return "CreateBucket";
    if (m === "DELETE") return "DeleteBucket";
    if (m === "POST" && query.delete !== undefined) return "DeleteObjects";
    return "NotImplemented";
  }
  if (m === "GET") return "GetObject";
  if (m === "HEAD") return "HeadObject";
  if (m === "PUT") return headers["x-amz-copy-source"] ? "CopyObject" : "PutObject";
  if (m === "DELETE") return "DeleteObject";
  return "NotImplemented";
}

/** What conditions and `$.req` see of an S3 request (docs/decisions.md, "S3 on the main port"). */
export interface S3RequestView {
  operation: S3Operation;
  bucket: string;
  /** "" for bucket-level operations. */
  key: string;
  /** PutObject: the content type and decoded size; CopyObject: the source. */
  contentType?: string;
  size?: number;
  copySource?: string;
  /** ListObjects: the prefix asked for. */
  prefix?: string;
}
