// Instance-wide settings (one row per key) with an optional encrypted secret.
import { db, Prisma } from "@/server/db/client";
import { decryptSecret, encryptSecret } from "@/server/lib/crypto";

export async function readSetting<T>(key: string): Promise<{ value: T; secret: string | null } | null> {
  const row = await db().setting.findUnique({ where: { key } });
  if (!row) return null;
  return { value: row.value as T, secret: row.secretEnc ? decryptSecret(row.secretEnc) : null };
}

/** `secret: undefined` keeps the stored secret; `null` clears it. */
export async function writeSetting(key: string, value: unknown, secret?: string | null) {
  const secretEnc = secret === undefined ? undefined : secret === null || secret === "" ? null : encryptSecret(secret);
  await db().setting.upsert({
    where: { key },
    create: { key, value: value as Prisma.InputJsonValue, secretEnc: secretEnc ?? null },
    update: { value: value as Prisma.InputJsonValue, ...(secretEnc === undefined ? {} : { secretEnc }) },
  });
}
