// Objects stored in mocked S3 buckets (table S3Object): written by PUT,
// read by GET/HEAD, listed in byte order of their keys. They live in the
// database, so they survive restarts and every process serves the same ones.
// Limits (docs/decisions.md, "S3 on the main port"): one object at most
// S3_MAX_OBJECT_BYTES (default: the stub body limit, 10 MiB), a bucket at
// most S3_MAX_BUCKET_BYTES (100 MiB) and S3_MAX_BUCKET_OBJECTS (10,000), a
// namespace's buckets together at most S3_MAX_NAMESPACE_BYTES (250 MiB).
import { createHash } from "node:crypto";
import { db, Prisma } from "@/server/db/client";

const MiB = 1024 * 1024;

function envInt(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
}

export function s3Limits() {
  return {
    objectBytes: envInt("S3_MAX_OBJECT_BYTES", envInt("STUB_MAX_BODY_BYTES", 10 * MiB)),
    bucketBytes: envInt("S3_MAX_BUCKET_BYTES", 100 * MiB),
    bucketObjects: envInt("S3_MAX_BUCKET_OBJECTS", 10_000),
    namespaceBytes: envInt("S3_MAX_NAMESPACE_BYTES", 250 * MiB),
    /** S3's own key limit, in UTF-8 bytes. */
    keyBytes: 1024,
  };
}

/** A write the limits refuse: `kind` says which, for the S3 error code. */
export class S3LimitError extends Error {
  constructor(
    readonly kind: "object" | "bucket" | "namespace",
    message: string,
  ) {
    super(message);
  }
}

export interface S3ObjectMeta {
  bucket: string;
  key: string;
  contentType: string;
  etag: string;
  size: number;
  metadata: Record<string, string>;
  lastModified: Date;
}

export interface S3StoredObject extends S3ObjectMeta {
  bytes: Buffer;
}

export interface S3PutInput {
  bytes: Buffer;
  contentType: string;
  metadata: Record<string, string>;
}

export function etagOf(bytes: Buffer): string {
  return `"${createHash("md5").update(bytes).digest("hex")}"`;
}

const META = { bucket: true, key: true, contentType: true, etag: true, size: true, metadata: true, lastModified: true } as const;

function metaOf(row: { bucket: string; key: string; contentType: string; etag: string; size: number; metadata: unknown; lastModified: Date }): S3ObjectMeta {
  return { bucket: row.bucket, key: row.key, contentType: row.contentType, etag: row.etag, size: row.size, metadata: (row.metadata ?? {}) as Record<string, string>, lastModified: row.lastModified };
}

const id = (namespaceId: string, bucket: string, key: string) => ({ namespaceId_bucket_key: { namespaceId, bucket, key } });

/**
 * Stores (or replaces) an object. The namespace's writes take one advisory
 * lock, so the bucket and namespace totals checked here cannot be passed by
 * two concurrent uploads.
 */
export async function putS3Object(namespaceId: string, bucket: string, key: string, input: S3PutInput): Promise<S3ObjectMeta> {
  const limits = s3Limits();
  const size = input.bytes.length;
  if (size > limits.objectBytes) throw new S3LimitError("object", `An object may be at most ${limits.objectBytes} bytes`);
  const etag = etagOf(input.bytes);
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`s3-objects:${namespaceId}`}::text, 0))`;
    const [usage] = await tx.$queryRaw<{ nsBytes: bigint | null; bucketBytes: bigint | null; bucketObjects: bigint }[]>`
      SELECT SUM("size") AS "nsBytes",
             SUM("size") FILTER (WHERE "bucket" = ${bucket}) AS "bucketBytes",
             COUNT(*) FILTER (WHERE "bucket" = ${bucket}) AS "bucketObjects"
      FROM "S3Object" WHERE "namespaceId" = ${namespaceId}::uuid AND NOT ("bucket" = ${bucket} AND "key" = ${key})`;
    if (Number(usage?.bucketObjects ?? 0) + 1 > limits.bucketObjects) throw new S3LimitError("bucket", `A bucket may hold at most ${limits.bucketObjects} objects`);
    if (Number(usage?.bucketBytes ?? 0) + size > limits.bucketBytes) throw new S3LimitError("bucket", `A bucket may hold at most ${limits.bucketBytes} bytes`);
    if (Number(usage?.nsBytes ?? 0) + size > limits.namespaceBytes) throw new S3LimitError("namespace", `The buckets of a namespace may hold at most ${limits.namespaceBytes} bytes together`);
    const data = { content: new Uint8Array(input.bytes), contentType: input.contentType, etag, size, metadata: input.metadata, lastModified: new Date() };
    const row = await tx.s3Object.upsert({ where: id(namespaceId, bucket, key), create: { namespaceId, bucket, key, ...data }, update: data, select: META });
    return metaOf(row);
  });
}

export async function getS3Object(namespaceId: string, bucket: string, key: string): Promise<S3StoredObject | null> {
  const row = await db().s3Object.findUnique({ where: id(namespaceId, bucket, key) });
  if (!row) return null;
  return { ...metaOf(row), bytes: Buffer.from(row.content.buffer, row.content.byteOffset, row.content.byteLength) };
}

export async function headS3Object(namespaceId: string, bucket: string, key: string): Promise<S3ObjectMeta | null> {
  const row = await db().s3Object.findUnique({ where: id(namespaceId, bucket, key), select: META });
  return row ? metaOf(row) : null;
}

/** Deletes the keys that exist; deleting a missing key is no error (S3 semantics). */
export async function deleteS3Objects(namespaceId: string, bucket: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db().s3Object.deleteMany({ where: { namespaceId, bucket, key: { in: keys } } });
}

export async function countS3Objects(namespaceId: string, bucket: string): Promise<number> {
  return db().s3Object.count({ where: { namespaceId, bucket } });
}

const PAGE = 1000;

/**
 * Keys of a bucket that start with `prefix` and sort after `after`, in byte
 * order (COLLATE "C" = UTF-8 byte order), fetched a thousand at a time as the
 * caller iterates; contents are never read.
 */
export async function* iterateS3Keys(namespaceId: string, bucket: string, prefix: string, after = ""): AsyncGenerator<{ key: string; size: number; etag: string; lastModified: Date }> {
  let cursor = after;
  for (;;) {
    const rows = await db().$queryRaw<{ key: string; size: number; etag: string; lastModified: Date }[]>(Prisma.sql`
      SELECT "key", "size", "etag", "lastModified" FROM "S3Object"
      WHERE "namespaceId" = ${namespaceId}::uuid AND "bucket" = ${bucket} AND starts_with("key", ${prefix}) AND "key" COLLATE "C" > ${cursor}
      ORDER BY "key" COLLATE "C" LIMIT ${PAGE}`);
    yield* rows;
    if (rows.length < PAGE) return;
    cursor = rows[rows.length - 1].key;
  }
}
