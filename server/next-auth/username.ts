// Usernames for users created at their first OAuth/OIDC sign-in. The source is
// the provider's username claim, else the local part of the e-mail address,
// else the subject; it is cut to the characters the Username contract allows
// and made unique with a numeric suffix. A taken name is never reused: an
// external account must not become a local user just because the names match.
import { db, Prisma } from "@/server/db/client";

const MAX_LENGTH = 64;
// Leaves room for "-" and a suffix of up to 6 digits within MAX_LENGTH.
const BASE_MAX_LENGTH = MAX_LENGTH - 7;

/** The part of a string that is a valid username, or null when nothing is left. */
export function sanitizeUsername(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const cleaned = raw
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9._@-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, BASE_MAX_LENGTH)
    .replace(/[-.]+$/, "");
  return cleaned || null;
}

/** The first usable base name from the claim, the e-mail local part and the subject, in that order. */
export function baseUsername(candidates: { claim?: string | null; email?: string | null; subject?: string | null }): string {
  const emailLocal = candidates.email?.includes("@") ? candidates.email.slice(0, candidates.email.lastIndexOf("@")) : null;
  return sanitizeUsername(candidates.claim) ?? sanitizeUsername(emailLocal) ?? sanitizeUsername(candidates.subject) ?? "user";
}

/** `base` if free, else `base-2`, `base-3`… (the smallest free suffix). */
export async function freeUsername(base: string): Promise<string> {
  const taken = new Set(
    (await db().user.findMany({ where: { username: { startsWith: base } }, select: { username: true } })).map((u) => u.username),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const name = `${base}-${n}`;
    if (!taken.has(name)) return name;
  }
}

export function isUsernameConflict(err: unknown): boolean {
  if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== "P2002") return false;
  // Where the constraint's fields are reported depends on the engine: meta.target,
  // or meta.driverAdapterError.cause.constraint.fields with the pg driver adapter.
  // (Not the message: it quotes the calling code, which may mention any field.)
  const meta = err.meta as { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: unknown } } } } | undefined;
  const fields = meta?.target ?? meta?.driverAdapterError?.cause?.constraint?.fields;
  return JSON.stringify(fields ?? null).includes("username");
}
