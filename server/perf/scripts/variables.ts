// `{{variables}}` in a generated script: each becomes `__ENV.<name>`, the
// way k6 users parametrise what varies (base URL, tokens), and the script
// carries the value it had when generated as a default (docs/decisions.md,
// "Performance: generated scripts"). Secret values are never written into a
// script: they travel beside it as the run's environment. Postman's dynamic
// variables draw a fresh value per use where k6 can compute one (`uuid()`,
// the time), otherwise one value is drawn at generation time, with a warning.
import { dynamicVariable } from "@/server/tester/dynamic-variables";
import { concat, expr, lit, type Text } from "./js";

export interface VariableValue {
  value: string;
  secret: boolean;
}

/** What a script's __ENV name stands for. */
export interface EnvVariable {
  /** The __ENV name (letters, digits and _). */
  name: string;
  /** The `{{name}}` it stands for, as written. */
  from: string;
  /** The value written into the script (undefined: secret, or no value known). */
  default?: string;
  secret: boolean;
  /** The value a run needs beside the script (secrets), when known. */
  value?: string;
}

const VARIABLE = /\{\{([^{}]+?)\}\}/g;

/** Postman's dynamic variables that k6 code computes afresh on every use. */
const LIVE_DYNAMIC: Record<string, { code: string; helper?: string }> = {
  $guid: { code: "uuid()", helper: "uuid" },
  $randomUUID: { code: "uuid()", helper: "uuid" },
  $timestamp: { code: "Math.floor(Date.now() / 1000)" },
  $isoTimestamp: { code: "new Date().toISOString()" },
  $randomInt: { code: "Math.floor(Math.random() * 1001)" },
};

/** A name __ENV can carry (the perf API's environment names): letters, digits and _, not a built-in property. */
export function envNameOf(name: string): string {
  let out = name.trim().replace(/[^A-Za-z0-9_]+/g, "_").slice(0, 120) || "var";
  if (/^[0-9]/.test(out)) out = `_${out}`;
  if (out in Object.prototype || out === "__proto__") out = `${out}_`;
  return out;
}

/**
 * The script's __ENV names, shared by every request of one script. Two
 * collections may give one name two values: the second gets its own __ENV
 * name (baseUrl_2), so each request still sends what it sent in the tester.
 */
export class EnvTable {
  readonly variables = new Map<string, EnvVariable>();
  readonly helpers = new Set<string>();
  readonly warnings: string[] = [];
  readonly #frozen = new Set<string>();

  /** The __ENV name for `from` with this value (undefined: no value known). */
  nameFor(from: string, value: VariableValue | undefined): string {
    const base = envNameOf(from);
    for (let i = 1; ; i++) {
      const name = i === 1 ? base : `${base}_${i}`;
      const have = this.variables.get(name);
      if (!have) {
        this.variables.set(name, {
          name,
          from,
          secret: value?.secret ?? false,
          ...(value && !value.secret ? { default: value.value } : {}),
          ...(value ? { value: value.value } : {}),
        });
        return name;
      }
      if (have.from === from && have.value === value?.value && have.secret === (value?.secret ?? false)) return name;
    }
  }

  /** A Postman dynamic variable as code, or undefined when `name` is none. */
  dynamic(name: string): Text | undefined {
    const live = LIVE_DYNAMIC[name];
    if (live) {
      if (live.helper) this.helpers.add(live.helper);
      return expr(live.code);
    }
    const drawn = dynamicVariable(name);
    if (drawn === undefined) return undefined;
    if (!this.#frozen.has(name)) {
      this.#frozen.add(name);
      this.warnings.push(`{{${name}}} has no k6 equivalent: one value was drawn when the script was generated, so every iteration sends the same one`);
    }
    return lit(drawn);
  }

  /** Names a run must be given (secrets, and names nobody defined). */
  required(): EnvVariable[] {
    return [...this.variables.values()].filter((v) => v.default === undefined);
  }
}

/** Resolves `{{names}}` of one collection (its variables under the environment's) into Text for the script. */
export class VariableScope {
  constructor(
    readonly table: EnvTable,
    private readonly values: Record<string, VariableValue>,
  ) {}

  #lookup(name: string): VariableValue | undefined {
    if (Object.prototype.hasOwnProperty.call(this.values, name)) return this.values[name];
    const trimmed = name.trim();
    return trimmed !== name && Object.prototype.hasOwnProperty.call(this.values, trimmed) ? this.values[trimmed] : undefined;
  }

  /** The text with every `{{name}}` as `__ENV.name` (or a dynamic variable's code). */
  text(input: string): Text {
    if (!input.includes("{{")) return lit(input);
    const parts: Text[] = [];
    let at = 0;
    for (const m of input.matchAll(VARIABLE)) {
      parts.push(lit(input.slice(at, m.index)));
      at = m.index + m[0].length;
      const name = m[1];
      const value = this.#lookup(name);
      // A defined variable wins over a dynamic one of the same name, as in Postman.
      const dynamic = value === undefined ? this.table.dynamic(name.trim()) : undefined;
      parts.push(dynamic ?? expr(`__ENV.${this.table.nameFor(value === undefined ? name.trim() : name, value)}`));
    }
    parts.push(lit(input.slice(at)));
    return concat(...parts);
  }

  /** The value a name had at generation time (for decisions such as "does the base URL have a scheme"). */
  valueOf(name: string): string | undefined {
    return this.#lookup(name)?.value;
  }
}

/** A scope with no variables: `{{x}}` still becomes __ENV.x (no default). */
export const bareScope = (table: EnvTable) => new VariableScope(table, {});

/**
 * Collection variables under the environment's (the tester's precedence),
 * each value expanded once here so the script's defaults are final text. A
 * value that uses a secret one is secret too: expanded, it holds the secret.
 */
export function scopeValues(collection: Record<string, string>, environment: Record<string, string>, secretNames: Iterable<string>): Record<string, VariableValue> {
  const raw: Record<string, string> = { ...collection, ...environment };
  const secret = new Set(secretNames);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, value] of Object.entries(raw)) {
      if (secret.has(name)) continue;
      if ([...value.matchAll(VARIABLE)].some((m) => secret.has(m[1].trim()))) {
        secret.add(name);
        changed = true;
      }
    }
  }
  const expand = (value: string, stack: string[]): string =>
    value.replace(VARIABLE, (whole, name: string) => {
      const key = Object.prototype.hasOwnProperty.call(raw, name) ? name : name.trim();
      // A dynamic variable inside a value is drawn here: the default is plain text.
      if (!Object.prototype.hasOwnProperty.call(raw, key)) return dynamicVariable(key) ?? whole;
      if (stack.includes(key) || stack.length > 16) return whole;
      return expand(raw[key], [...stack, key]);
    });
  return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, { value: expand(value, [name]), secret: secret.has(name) }]));
}
