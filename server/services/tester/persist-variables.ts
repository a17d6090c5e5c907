// Postman writes the environment and collection variables that scripts
// changed back to where they live (a login request's test sets `token`, the
// next request reads it). Only the changed names are written, so a run does
// not overwrite what someone else edited meanwhile in other variables; new
// names are plain (not secret); an unset removes the name.
import type { Actor } from "@/server/auth/actor";
import type { ScopeValues, VariableScopes } from "@/server/tester/scopes";
import type { NamespaceScope } from "../namespace-access";
import { loadCollectionForRun } from "./collection-tree";
import { updateCollection } from "./collections";
import { loadEnvironmentForRun, updateEnvironment } from "./environments";

const text = (v: unknown) => (typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v));

interface Changes {
  set: Record<string, string>;
  unset: string[];
}

export function changesBetween(before: ScopeValues, after: ScopeValues): Changes | null {
  const set: Record<string, string> = {};
  const unset: string[] = [];
  for (const [k, v] of Object.entries(after)) if (!Object.prototype.hasOwnProperty.call(before, k) || text(before[k]) !== text(v)) set[k] = text(v);
  for (const k of Object.keys(before)) if (!Object.prototype.hasOwnProperty.call(after, k)) unset.push(k);
  return Object.keys(set).length || unset.length ? { set, unset } : null;
}

export async function persistScriptVariables(
  actor: Actor,
  scope: NamespaceScope,
  target: { environment: { id: string | null }; collection: { id: string } | null; environmentOverridden?: boolean },
  before: VariableScopes,
  after: VariableScopes,
): Promise<void> {
  const env = changesBetween(before.environment, after.environment);
  if (env && target.environment.id && !target.environmentOverridden) {
    const current = await loadEnvironmentForRun(scope, target.environment.id);
    const values = { ...current.values, ...env.set };
    for (const k of env.unset) delete values[k];
    await updateEnvironment(actor, scope, target.environment.id, { variables: values, secrets: current.secrets.filter((s) => s in values) });
  }
  const col = changesBetween(before.collection, after.collection);
  if (col && target.collection) {
    const current = await loadCollectionForRun(scope, target.collection.id);
    const variables = current.variables.filter((v) => !col.unset.includes(v.key)).map((v) => (v.key in col.set ? { ...v, value: col.set[v.key] } : v));
    for (const [key, value] of Object.entries(col.set)) if (!variables.some((v) => v.key === key)) variables.push({ key, value, secret: false, enabled: true });
    await updateCollection(scope, target.collection.id, { variables });
  }
}
