// Secret values of collection variables and environments. At rest a secret's
// value is sealed with AES-256-GCM (server/lib/crypto.ts, keyed from
// APP_SECRET); an empty one is stored empty. Views show SECRET_MASK for a
// secret that has a value, so no view ever decrypts. A value sent back as
// the mask keeps what is stored (a form's round trip must not replace a
// secret with its mask). Only the executor's loaders open the seal.
import { SECRET_MASK, type Variable } from "@/server/contracts/tester-request";
import { decryptSecret, encryptSecret } from "@/server/lib/crypto";

/** A collection variable as stored: `value` is sealed when `secret` is true and the value is not empty. */
export type StoredVariable = Variable;

function seal(value: string): string {
  return value === "" ? "" : encryptSecret(value);
}

export function openSeal(sealed: string): string {
  return sealed === "" ? "" : decryptSecret(sealed);
}

/** The stored list, read leniently: rows are written only by this module. */
export function storedVariables(json: unknown): StoredVariable[] {
  if (!Array.isArray(json)) return [];
  return json.flatMap((v) => {
    if (!v || typeof v !== "object" || typeof (v as Variable).key !== "string") return [];
    const { key, value, secret, enabled } = v as Partial<Variable>;
    return [{ key: key!, value: typeof value === "string" ? value : "", secret: secret === true, enabled: enabled !== false }];
  });
}

/**
 * The list to store for `incoming`, given what is stored now: secret values
 * are sealed; a value equal to the mask takes the stored value of the same
 * key when that one was secret (sealed again only if it was not).
 */
export function sealVariables(incoming: Variable[], current: StoredVariable[] = []): StoredVariable[] {
  const byKey = new Map(current.map((v) => [v.key, v]));
  return incoming.map((v) => {
    const stored = byKey.get(v.key);
    if (v.value === SECRET_MASK && stored?.secret) {
      return { ...v, value: v.secret ? stored.value : openSeal(stored.value) };
    }
    return { ...v, value: v.secret ? seal(v.value) : v.value };
  });
}

/** As views show them: secret values are the mask. */
export function maskVariables(stored: StoredVariable[]): Variable[] {
  return stored.map((v) => (v.secret && v.value !== "" ? { ...v, value: SECRET_MASK } : v));
}

/** Real values, for the executor. */
export function openVariables(stored: StoredVariable[]): Variable[] {
  return stored.map((v) => (v.secret ? { ...v, value: openSeal(v.value) } : v));
}

// ---- Environments: {name: value} with the secret names beside it -----------------

export function storedEnvironmentValues(json: unknown): Record<string, string> {
  if (!json || typeof json !== "object" || Array.isArray(json)) return {};
  return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, typeof v === "string" ? v : String(v ?? "")]));
}

/** Same rule as sealVariables for an environment's map. */
export function sealEnvironment(incoming: Record<string, string>, secrets: string[], current: Record<string, string>, currentSecrets: string[]): Record<string, string> {
  const secret = new Set(secrets);
  const wasSecret = new Set(currentSecrets);
  return Object.fromEntries(
    Object.entries(incoming).map(([name, value]) => {
      const has = Object.prototype.hasOwnProperty.call(current, name);
      if (value === SECRET_MASK && has && wasSecret.has(name)) {
        return [name, secret.has(name) ? current[name] : openSeal(current[name])];
      }
      return [name, secret.has(name) ? seal(value) : value];
    }),
  );
}

export function maskEnvironment(stored: Record<string, string>, secrets: string[]): Record<string, string> {
  const secret = new Set(secrets);
  return Object.fromEntries(Object.entries(stored).map(([name, value]) => [name, secret.has(name) && value !== "" ? SECRET_MASK : value]));
}

export function openEnvironment(stored: Record<string, string>, secrets: string[]): Record<string, string> {
  const secret = new Set(secrets);
  return Object.fromEntries(Object.entries(stored).map(([name, value]) => [name, secret.has(name) ? openSeal(value) : value]));
}

/**
 * `text` with every occurrence of the given secret values replaced by the
 * mask, longest first (so a secret that contains another is masked whole).
 * For what is recorded of a sent request: history and run results.
 */
export function maskSecretValues(text: string, secretValues: readonly string[]): string {
  const values = [...new Set(secretValues.filter((v) => v !== "" && v !== SECRET_MASK))].sort((a, b) => b.length - a.length);
  let out = text;
  for (const value of values) out = out.split(value).join(SECRET_MASK);
  return out;
}
