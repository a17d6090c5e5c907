// Temporary files (spec: Templates and temporary files). A file is private to
// the identity that uploaded it and to the namespace it was uploaded in: any
// other identity or namespace gets 404, as if it did not exist. Files expire
// 30 minutes after upload; expired rows are invisible at once and deleted by
// sweepExpiredTempFiles, which each upload runs first. With APP_SECRET set
// (always, under `npm start`) name and content are AES-256-GCM encrypted.
// All files together may take TEMP_FILES_MAX_TOTAL_BYTES (429
// temp_store_full beyond); a database that cannot be reached is 503.
import { createHash, randomUUID } from "node:crypto";
import type { Actor } from "@/server/auth/actor";
import { TEMP_FILE_LIFETIME_MS, TEMP_FILE_MAX_BYTES, type TempFileView } from "@/server/contracts/file-endpoints";
import { db, Prisma, type TempFile } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import { decryptBytes, dataEncryptionEnabled, encryptBytes } from "@/server/lib/encrypt-bytes";
import { logger } from "@/server/lib/logger";
import type { NamespaceScope } from "./namespace-access";

const DEFAULT_MAX_TOTAL_BYTES = 256 * 1024 * 1024;

export interface TempFileUpload {
  bytes: Uint8Array;
  fileName: string;
  contentType: string;
  /** Repeating an upload with the same key (same identity and namespace) while the file lives returns that file. */
  idempotencyKey?: string;
}

export interface TempFileContent extends TempFileView {
  bytes: Buffer;
}

/** The identity a file belongs to: the credential when one was used, else the user (every session of that user). */
export function tempFileOwner(actor: Actor): string {
  return actor.credentialId ? `credential:${actor.credentialId}` : `user:${actor.user.id}`;
}

function maxTotalBytes(): number {
  const configured = Number(process.env.TEMP_FILES_MAX_TOTAL_BYTES);
  return Number.isSafeInteger(configured) && configured > 0 ? configured : DEFAULT_MAX_TOTAL_BYTES;
}

// ---- Database reachability ----------------------------------------------------

const CONNECTION_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const CONNECTION_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "TlsConnectionError"]);

function isConnectionError(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientInitializationError) return true;
  if (!(err instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (CONNECTION_CODES.has(err.code)) return true;
  // Raw queries report an unreachable server as P2010 with the driver adapter's reason inside.
  const kind = (err.meta?.driverAdapterError as { cause?: { kind?: unknown } } | undefined)?.cause?.kind;
  return typeof kind === "string" && CONNECTION_KINDS.has(kind);
}

/** Runs `work`, turning "cannot reach the database" into the spec's 503 for the temporary store. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isConnectionError(err)) throw errors.unavailable("The temporary file store is unavailable; try again later");
    throw err;
  }
}

// ---- Encryption at rest -----------------------------------------------------------

// The row id is part of each context: a sealed name or content moved to another row does not open.
const nameContext = (id: string) => `temp-file:${id}:name`;
const contentContext = (id: string) => `temp-file:${id}:content`;

function seal(id: string, upload: TempFileUpload) {
  if (!dataEncryptionEnabled()) return { encrypted: false, nameEnc: upload.fileName, content: new Uint8Array(upload.bytes) };
  return {
    encrypted: true,
    nameEnc: encryptBytes(Buffer.from(upload.fileName, "utf8"), nameContext(id)).toString("base64"),
    content: new Uint8Array(encryptBytes(upload.bytes, contentContext(id))),
  };
}

/** Name and content in clear; null when they cannot be decrypted (sealed under another APP_SECRET, or altered): such a file is as good as gone. */
function open(row: TempFile): { fileName: string; bytes: Buffer } | null {
  if (!row.encrypted) return { fileName: row.nameEnc, bytes: Buffer.from(row.content) };
  try {
    return {
      fileName: decryptBytes(Buffer.from(row.nameEnc, "base64"), nameContext(row.id)).toString("utf8"),
      bytes: decryptBytes(row.content, contentContext(row.id)),
    };
  } catch (err) {
    logger().warn({ err, tempFileId: row.id }, "temporary file cannot be decrypted");
    return null;
  }
}

function view(row: TempFile, fileName: string): TempFileView {
  return { id: row.id, fileName, size: row.size, contentType: row.contentType, expiresAt: row.expiresAt.toISOString() };
}

// ---- Idempotency --------------------------------------------------------------------

/**
 * The file id a keyed upload gets: a UUID (version 8, RFC 9562) from a hash of
 * namespace, identity and key. The primary key then makes a second store of
 * the same upload impossible, across processes and replicas, with no table of
 * keys; the id reveals nothing of the key.
 */
function idempotentId(namespaceId: string, owner: string, key: string): string {
  const h = createHash("sha256").update(`polymock:temp-file:${namespaceId}\n${owner}\n${key}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function sameUpload(row: TempFile, stored: { fileName: string; bytes: Buffer }, upload: TempFileUpload): boolean {
  return row.contentType === upload.contentType && stored.fileName === upload.fileName && stored.bytes.equals(Buffer.from(upload.bytes));
}

// ---- Use-cases ------------------------------------------------------------------------

/** Deletes every expired temporary file; returns how many went. */
export async function sweepExpiredTempFiles(now = new Date()): Promise<number> {
  const { count } = await db().tempFile.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}

export async function uploadTempFile(actor: Actor, ns: NamespaceScope, upload: TempFileUpload): Promise<{ file: TempFileView; replayed: boolean }> {
  if (upload.bytes.byteLength > TEMP_FILE_MAX_BYTES) {
    throw new AppError("payload_too_large", `A temporary file may be at most ${TEMP_FILE_MAX_BYTES} bytes`, { status: 413, details: { limitBytes: TEMP_FILE_MAX_BYTES } });
  }
  const owner = tempFileOwner(actor);
  const id = upload.idempotencyKey ? idempotentId(ns.id, owner, upload.idempotencyKey) : randomUUID();
  const sealed = seal(id, upload); // outside the transaction: it holds the store-wide lock
  return guarded(async () => {
    await sweepExpiredTempFiles();
    return db().$transaction(
      async (tx) => {
        // One upload at a time across all replicas, so the capacity check below is exact.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('polymock:temp-files'))`;
        const now = new Date();
        if (upload.idempotencyKey) {
          const prior = await tx.tempFile.findFirst({ where: { id, namespaceId: ns.id, ownerKey: owner } });
          const stored = prior && prior.expiresAt > now ? open(prior) : null;
          if (prior && stored) {
            if (!sameUpload(prior, stored, upload)) {
              throw new AppError("idempotency_key_conflict", "This Idempotency-Key was used for a different upload; use a new key for a new file", {
                status: 409,
                details: [{ location: "header", field: "idempotency-key", message: "already used for a different upload" }],
              });
            }
            return { file: view(prior, upload.fileName), replayed: true };
          }
          if (prior) await tx.tempFile.delete({ where: { id } });
        }
        const limit = maxTotalBytes();
        if (upload.bytes.byteLength > limit) {
          // Waiting would not help: the file is larger than the whole store.
          throw new AppError("payload_too_large", `The temporary file store holds at most ${limit} bytes in all`, { status: 413, details: { limitBytes: limit } });
        }
        const live = await tx.tempFile.aggregate({ where: { expiresAt: { gt: now } }, _sum: { size: true }, _min: { expiresAt: true } });
        const used = live._sum.size ?? 0;
        if (used + upload.bytes.byteLength > limit) {
          const retryAfterSeconds = Math.max(1, Math.ceil(((live._min.expiresAt?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
          throw new AppError("temp_store_full", "The temporary file store is full; try again when earlier files have expired", {
            status: 429,
            headers: { "Retry-After": String(retryAfterSeconds) },
            details: { limitBytes: limit, usedBytes: used, retryAfterSeconds },
          });
        }
        const row = await tx.tempFile.create({
          data: {
            id,
            namespaceId: ns.id,
            ownerKey: owner,
            ...sealed,
            contentType: upload.contentType,
            size: upload.bytes.byteLength,
            createdAt: now,
            expiresAt: new Date(now.getTime() + TEMP_FILE_LIFETIME_MS),
          },
        });
        return { file: view(row, upload.fileName), replayed: false };
      },
      // Waiting for the lock counts against the transaction's time.
      { timeout: 30_000 },
    );
  });
}

/** A live file of this identity in this namespace, decrypted; 404 otherwise. Imports read through this too. */
export async function readTempFile(actor: Actor, ns: NamespaceScope, id: string): Promise<TempFileContent> {
  const row = await guarded(() =>
    db().tempFile.findFirst({ where: { id, namespaceId: ns.id, ownerKey: tempFileOwner(actor), expiresAt: { gt: new Date() } } }),
  );
  const opened = row ? open(row) : null;
  if (!row || !opened) throw errors.notFound("Temporary file");
  return { ...view(row, opened.fileName), bytes: opened.bytes };
}

export async function deleteTempFile(actor: Actor, ns: NamespaceScope, id: string): Promise<{ ok: true }> {
  const { count } = await guarded(() =>
    db().tempFile.deleteMany({ where: { id, namespaceId: ns.id, ownerKey: tempFileOwner(actor), expiresAt: { gt: new Date() } } }),
  );
  if (count === 0) throw errors.notFound("Temporary file");
  return { ok: true };
}

/** The caller's live temporary files in this namespace, newest first (the web console's list); files that cannot be opened are left out. */
export async function listTempFiles(actor: Actor, ns: NamespaceScope): Promise<{ files: TempFileView[]; count: number }> {
  const rows = await guarded(() =>
    db().tempFile.findMany({ where: { namespaceId: ns.id, ownerKey: tempFileOwner(actor), expiresAt: { gt: new Date() } }, orderBy: [{ createdAt: "desc" }, { id: "asc" }] }),
  );
  const files = rows.flatMap((row) => {
    const opened = open(row);
    return opened ? [view(row, opened.fileName)] : [];
  });
  return { files, count: files.length };
}
