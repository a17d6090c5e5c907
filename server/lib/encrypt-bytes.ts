// AES-256-GCM for binary data at rest (temporary files). The key is derived
// exactly as server/lib/crypto.ts derives it for encryptSecret (SHA-256 of
// "polymock:data-key:" + APP_SECRET), so one secret protects every encrypted
// column; keep the two derivations in step. Unlike encryptSecret this works on
// bytes (no base64 detour for files of megabytes) and binds a caller-chosen
// context as additional authenticated data, so a sealed value copied into
// another row, or from the name column into the content column, fails to open.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Whether data encryption is configured (APP_SECRET is set; `npm start` always sets it). */
export function dataEncryptionEnabled(): boolean {
  return Boolean(process.env.APP_SECRET);
}

function dataKey(): Buffer {
  const secret = process.env.APP_SECRET;
  if (!secret) throw new Error("APP_SECRET is not set (npm start generates one in the data directory)");
  return createHash("sha256").update(`polymock:data-key:${secret}`).digest();
}

/** Output: iv(12) | tag(16) | ciphertext. */
export function encryptBytes(plain: Uint8Array, context: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", dataKey(), iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** Throws when the data was altered, sealed under another context, or with another APP_SECRET. */
export function decryptBytes(sealed: Uint8Array, context: string): Buffer {
  const raw = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("sealed data is too short");
  const decipher = createDecipheriv("aes-256-gcm", dataKey(), raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}
