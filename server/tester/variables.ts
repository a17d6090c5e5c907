// `{{name}}` substitution as Postman does it: a name is looked up with scope
// precedence (scopes.ts), a value that itself holds `{{other}}` is expanded in
// turn, `{{$guid}}`-style dynamic variables draw a new value at each
// occurrence, and a name nobody defines stays in the text verbatim so the
// sent request shows what was missing (the caller reports `unresolved`).
import type { Clock, Random } from "@/server/engine/types";
import { defaultClock, defaultRandom, dynamicVariable } from "./dynamic-variables";
import { resolveVariable, type VariableScopes } from "./scopes";

// Postman's own pattern: anything but braces between `{{` and `}}`, so names
// may hold spaces, dots and dashes, and `{{ {{a}} }}` expands the inner one.
const VARIABLE = /\{\{([^{}]+?)\}\}/g;

/** Postman stops after 19 passes; nesting deeper than this is a mistake, not a design. */
export const MAX_VARIABLE_DEPTH = 16;

export interface SubstituteOptions {
  maxDepth?: number;
  random?: Random;
  clock?: Clock;
}

export interface Substituted {
  text: string;
  /** Names left as `{{name}}`: undefined, part of a cycle, or nested too deep. In order of first occurrence. */
  unresolved: string[];
}

export function substitute(text: string, scopes: VariableScopes, opts: SubstituteOptions = {}): Substituted {
  const s = createSubstituter(scopes, opts);
  const out = s.text(text);
  return { text: out, unresolved: s.unresolved() };
}

export interface Substituter {
  text(input: string): string;
  /** Strings anywhere in a JSON value (keys too); other values unchanged. */
  deep(value: unknown): unknown;
  unresolved(): string[];
}

/** One substituter for many strings of one request, collecting every unresolved name once. */
export function createSubstituter(scopes: VariableScopes, opts: SubstituteOptions = {}): Substituter {
  const maxDepth = opts.maxDepth ?? MAX_VARIABLE_DEPTH;
  const random = opts.random ?? defaultRandom;
  const clock = opts.clock ?? defaultClock;
  const unresolved = new Set<string>();

  const lookup = (name: string): unknown => {
    const exact = resolveVariable(scopes, name);
    if (exact !== undefined) return exact;
    // `{{ name }}` means `name` unless someone really defined the spaced one.
    const trimmed = name.trim();
    return trimmed !== name ? resolveVariable(scopes, trimmed) : undefined;
  };

  const expand = (input: string, stack: readonly string[]): string => {
    if (!input.includes("{{")) return input;
    return input.replace(VARIABLE, (whole, name: string) => {
      if (stack.includes(name) || stack.length >= maxDepth) {
        unresolved.add(name);
        return whole;
      }
      const value = lookup(name);
      if (value === undefined) {
        // A defined variable wins over a dynamic one of the same name, as in Postman.
        const dynamic = dynamicVariable(name.trim(), random, clock);
        if (dynamic !== undefined) return dynamic;
        unresolved.add(name);
        return whole;
      }
      return expand(typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)), [...stack, name]);
    });
  };

  const deep = (value: unknown): unknown => {
    if (typeof value === "string") return expand(value, []);
    if (Array.isArray(value)) return value.map(deep);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [expand(k, []), deep(v)]));
    return value;
  };

  return { text: (input) => expand(input, []), deep, unresolved: () => [...unresolved] };
}
