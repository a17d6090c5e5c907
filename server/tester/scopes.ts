// Variable scopes as Postman defines them, narrowest last: a name is looked
// up in local, then data (the iteration's row), environment, collection and
// globals. Scripts read and write them (pm.variables, pm.environment…); the
// request builder substitutes `{{name}}` from the merged view.
export const SCOPE_ORDER = ["globals", "collection", "environment", "data", "local"] as const;
export type ScopeName = (typeof SCOPE_ORDER)[number];

/** Values are strings as users write them, but scripts may set any JSON value (Postman keeps the type). */
export type ScopeValues = Record<string, unknown>;
export type VariableScopes = Record<ScopeName, ScopeValues>;

export function emptyScopes(): VariableScopes {
  return { globals: {}, collection: {}, environment: {}, data: {}, local: {} };
}

/** Deep enough copy that a script run cannot mutate its caller's scopes. */
export function cloneScopes(scopes: VariableScopes): VariableScopes {
  return structuredClone(scopes);
}

/** The value a name has with precedence applied, or undefined. */
export function resolveVariable(scopes: VariableScopes, name: string): unknown {
  for (let i = SCOPE_ORDER.length - 1; i >= 0; i--) {
    const scope = scopes[SCOPE_ORDER[i]];
    if (Object.prototype.hasOwnProperty.call(scope, name)) return scope[name];
  }
  return undefined;
}

/** Every name with precedence applied (narrow scopes win). */
export function mergedVariables(scopes: VariableScopes): ScopeValues {
  return Object.assign({}, ...SCOPE_ORDER.map((s) => scopes[s]));
}
