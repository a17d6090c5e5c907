// Bearer secrets for API tokens, delegated and integration credentials.
// Format: <prefix>_<40 base62 chars>, ~238 bits of entropy; stored as SHA-256.
import { randomBase62, sha256Hex } from "@/server/lib/crypto";

export type CredentialKind = "api_token" | "delegated" | "integration";

const PREFIX: Record<CredentialKind, string> = { api_token: "pmk", delegated: "pmd", integration: "pmi" };

export function newSecret(kind: CredentialKind): { secret: string; hash: string; displayPrefix: string } {
  const secret = `${PREFIX[kind]}_${randomBase62(40)}`;
  return { secret, hash: sha256Hex(secret), displayPrefix: secret.slice(0, 10) };
}

export function hashSecret(secret: string): string {
  return sha256Hex(secret);
}

/** Delegated and integration credentials live 90 days from creation or rotation (spec). */
export const ROTATING_CREDENTIAL_DAYS = 90;

export function rotatingExpiry(from = new Date()): Date {
  return new Date(from.getTime() + ROTATING_CREDENTIAL_DAYS * 24 * 3600 * 1000);
}
