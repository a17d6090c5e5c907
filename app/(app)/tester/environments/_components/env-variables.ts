// Between the API's environment form ({name: value} plus the names that are
// secret, secret values shown as SECRET_MASK) and the variables table's list
// of rows. Environments have no "disabled" variables, so unticked rows are
// not saved (the editor says how many before saving). A stored secret sent
// back as the mask keeps its value on the server; the mask anywhere else
// would be saved as the text "••••••", so those rows are refused with a
// message saying what to type.
import type { EnvironmentView } from "@/server/contracts/tester-environments";
import { MAX_ENVIRONMENT_VARIABLES } from "@/server/contracts/tester-environments";
import { SECRET_MASK, type Variable } from "@/server/contracts/tester-request";

const MAX_VALUE_CHARS = 100_000;

export function variablesOf(env: Pick<EnvironmentView, "variables" | "secrets">): Variable[] {
  const secret = new Set(env.secrets);
  return Object.entries(env.variables).map(([key, value]) => ({ key, value, secret: secret.has(key), enabled: true }));
}

export type EnvironmentPayload = { ok: true; variables: Record<string, string>; secrets: string[]; dropped: number } | { ok: false; problems: string[] };

/** The update's `variables` and `secrets` from the table's rows; `storedSecrets` are the names the server holds secret values for. */
export function environmentPayload(rows: readonly Variable[], storedSecrets: readonly string[]): EnvironmentPayload {
  const problems: string[] = [];
  const stored = new Set(storedSecrets);
  const kept = rows.filter((r) => r.enabled);
  const nameless = kept.filter((r) => r.key.trim() === "").length;
  if (nameless) problems.push(nameless === 1 ? "A variable has no name" : `${nameless} variables have no name`);
  if (kept.length > MAX_ENVIRONMENT_VARIABLES) problems.push(`An environment holds at most ${MAX_ENVIRONMENT_VARIABLES} variables`);
  const variables: Record<string, string> = {};
  const secrets: string[] = [];
  const twice = new Set<string>();
  for (const r of kept) {
    if (r.key.trim() === "") continue;
    if (r.key.length > 255) problems.push(`The name “${r.key.slice(0, 40)}…” is longer than 255 characters`);
    if (Object.prototype.hasOwnProperty.call(variables, r.key)) {
      if (!twice.has(r.key)) problems.push(`“${r.key}” is given twice`);
      twice.add(r.key);
      continue;
    }
    if (r.value.length > MAX_VALUE_CHARS) problems.push(`The value of “${r.key}” is longer than ${MAX_VALUE_CHARS} characters`);
    if (r.value === SECRET_MASK && !(r.secret && stored.has(r.key))) {
      problems.push(
        stored.has(r.key)
          ? `“${r.key}” is no longer secret: type its value (the stored one cannot be shown)`
          : `Type the value of “${r.key}” again: a secret's stored value stays with the name it was saved under`,
      );
    }
    variables[r.key] = r.value;
    if (r.secret) secrets.push(r.key);
  }
  if (problems.length) return { ok: false, problems };
  return { ok: true, variables, secrets, dropped: rows.length - kept.length };
}
