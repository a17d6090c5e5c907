import { hash, verify } from "@node-rs/argon2";

// argon2id with the library's defaults (m=19 MiB, t=2, p=1: OWASP's minimum).
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// A real hash to verify against when the user does not exist, so that a
// missing user takes as long as a wrong password.
let dummy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hash("not-a-real-password-" + Math.random());
  await verifyPassword(await dummy, password);
}
