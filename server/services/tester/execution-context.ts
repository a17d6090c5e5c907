// Everything an execution needs before it sends: the request (saved, with its
// collection and folder chain, or inline), the variable scopes (collection,
// environment — the caller's active one unless told otherwise — and local),
// and the secret values to mask in what is stored and shown.
import type { Actor } from "@/server/auth/actor";
import type { RequestDefinition } from "@/server/contracts/tester-request";
import { errors } from "@/server/errors";
import type { ItemScope, RunnableRequest } from "@/server/tester/execute-item";
import { folderChain } from "@/server/tester/folder-chain";
import { emptyScopes, type VariableScopes } from "@/server/tester/scopes";
import type { NamespaceScope } from "../namespace-access";
import { loadCollectionForRun, type CollectionForRun } from "./collection-tree";
import { loadActiveEnvironmentForRun, loadEnvironmentForRun } from "./environments";
import { refuseCrossSpace, reachRequest } from "./collection-access";

export interface EnvironmentChoice {
  environmentId?: string | null;
  environmentVariables?: Record<string, string>;
}

export interface ResolvedEnvironment {
  id: string | null;
  values: Record<string, string>;
  secretValues: string[];
  /** environmentVariables replaced the values: nothing is written back to the environment. */
  overridden: boolean;
}

export interface ExecutionContext {
  scope: ItemScope;
  request: RunnableRequest;
  collection: CollectionForRun | null;
  environment: ResolvedEnvironment;
  scopes: VariableScopes;
  /** Secret values of the environment and the collection: masked wherever results are kept or shown. */
  secretValues: string[];
}

/** Absent: the caller's active environment; empty or null: none; an id: that one (404 when not in the namespace). */
export async function resolveEnvironment(actor: Actor, scope: NamespaceScope, choice: EnvironmentChoice): Promise<ResolvedEnvironment> {
  const env =
    choice.environmentId === undefined
      ? await loadActiveEnvironmentForRun(actor, scope)
      : choice.environmentId
        ? await loadEnvironmentForRun(scope, choice.environmentId)
        : null;
  const overridden = !!choice.environmentVariables && Object.keys(choice.environmentVariables).length > 0;
  const values = overridden ? { ...choice.environmentVariables } : { ...(env?.values ?? {}) };
  const secretValues = env ? env.secrets.map((name) => env.values[name]).filter((v): v is string => typeof v === "string") : [];
  return { id: env?.id ?? null, values, secretValues, overridden };
}

export function collectionVariables(collection: CollectionForRun | null): Record<string, string> {
  if (!collection) return {};
  return Object.fromEntries(collection.variables.filter((v) => v.enabled).map((v) => [v.key, v.value]));
}

export function collectionSecrets(collection: CollectionForRun | null): string[] {
  return collection ? collection.variables.filter((v) => v.secret && v.value).map((v) => v.value) : [];
}

export function itemScopeOf(collection: CollectionForRun | null, folderId: string | null): ItemScope {
  if (!collection) return { collection: { id: null, name: "" }, folders: [] };
  return {
    collection: { id: collection.id, name: collection.name, auth: collection.auth, scripts: collection.scripts },
    folders: folderChain(collection.folders, folderId),
  };
}

export async function loadExecutionContext(
  actor: Actor,
  scope: NamespaceScope,
  input: EnvironmentChoice & { requestId?: string; request?: RequestDefinition; collectionId?: string; variables?: Record<string, string> },
): Promise<ExecutionContext> {
  let collection: CollectionForRun | null = null;
  let request: RunnableRequest;
  let folderId: string | null = null;
  if (input.requestId) {
    // A request of a collection shared from another Space: 403 (viewable there, not sendable).
    const { request: row, ...reach } = await reachRequest(scope, input.requestId);
    refuseCrossSpace(reach, "execute");
    collection = await loadCollectionForRun(scope, row.collectionId);
    const saved = collection.requests.find((r) => r.id === input.requestId);
    if (!saved) throw errors.notFound(`Request '${input.requestId}'`);
    request = { id: saved.id, name: saved.name, definition: saved.definition };
    folderId = saved.folderId;
  } else {
    if (input.collectionId) collection = await loadCollectionForRun(scope, input.collectionId);
    request = { id: null, name: "Untitled request", definition: input.request! };
  }
  const environment = await resolveEnvironment(actor, scope, input);
  const scopes = emptyScopes();
  scopes.collection = collectionVariables(collection);
  scopes.environment = { ...environment.values };
  scopes.local = { ...(input.variables ?? {}) };
  return {
    scope: itemScopeOf(collection, folderId),
    request,
    collection,
    environment,
    scopes,
    secretValues: [...environment.secretValues, ...collectionSecrets(collection)],
  };
}
