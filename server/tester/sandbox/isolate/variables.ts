// Inside the isolate: the variable scopes behind pm.globals,
// pm.collectionVariables, pm.environment, pm.iterationData and pm.variables.
// Values keep their JSON type; each scope remembers whether the script changed
// it, so only changed scopes travel back to the host.
export const SCOPES = ["globals", "collection", "environment", "data", "local"] as const;
export type ScopeName = (typeof SCOPES)[number];
type Values = Record<string, unknown>;

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const MAX_DEPTH = 20;

/** Scripts may set any value; what is kept is what JSON can carry, taken at the moment of the set. */
function storable(v: unknown): unknown {
  if (v === null || (typeof v !== "object" && typeof v !== "function" && typeof v !== "bigint")) return v;
  if (typeof v === "function") return undefined;
  if (typeof v === "bigint") return String(v);
  try {
    const text = JSON.stringify(v);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return String(v);
  }
}

function nullProto(values: Values | undefined): Values {
  const out: Values = Object.create(null);
  if (values) for (const k of Object.keys(values)) out[k] = values[k];
  return out;
}

export class Stores {
  readonly values: Record<ScopeName, Values>;
  readonly dirty = new Set<ScopeName>();

  constructor(scopes: Partial<Record<ScopeName, Values>>) {
    this.values = { globals: nullProto(scopes.globals), collection: nullProto(scopes.collection), environment: nullProto(scopes.environment), data: nullProto(scopes.data), local: nullProto(scopes.local) };
  }

  resolve(name: string): { found: boolean; value: unknown } {
    for (let i = SCOPES.length - 1; i >= 0; i--) {
      const scope = this.values[SCOPES[i]];
      if (own(scope, name)) return { found: true, value: scope[name] };
    }
    return { found: false, value: undefined };
  }

  merged(): Values {
    const out: Values = {};
    for (const s of SCOPES) Object.assign(out, this.values[s]);
    return out;
  }

  changed(): Partial<Record<ScopeName, Values>> {
    const out: Partial<Record<ScopeName, Values>> = {};
    for (const s of this.dirty) out[s] = this.values[s];
    return out;
  }
}

/** `{{name}}` → value (recursively, as Postman does); unknown names stay as written. */
export function replaceIn(template: unknown, lookup: (name: string) => { found: boolean; value: unknown }, depth = 0): unknown {
  if (typeof template !== "string" || depth > MAX_DEPTH) return template;
  return template.replace(/\{\{([^{}]+)\}\}/g, (whole, rawName: string) => {
    const name = rawName.trim();
    if (name.startsWith("$")) {
      const dynamic = own(DYNAMIC, name) ? DYNAMIC[name] : undefined;
      return dynamic ? dynamic() : whole;
    }
    const hit = lookup(name);
    if (!hit.found || hit.value === undefined) return whole;
    const text = typeof hit.value === "string" ? hit.value : typeof hit.value === "object" ? JSON.stringify(hit.value) : String(hit.value);
    return String(replaceIn(text, lookup, depth + 1));
  });
}

export class VariableScope {
  constructor(
    protected readonly stores: Stores,
    protected readonly scope: ScopeName,
    readonly name?: string,
  ) {}

  get [Symbol.toStringTag](): string {
    return "VariableScope";
  }

  protected get values(): Values {
    return this.stores.values[this.scope];
  }
  has(key: string): boolean {
    return own(this.values, String(key));
  }
  get(key: string): unknown {
    const k = String(key);
    return own(this.values, k) ? this.values[k] : undefined;
  }
  set(key: string, value: unknown): void {
    this.values[String(key)] = storable(value);
    this.stores.dirty.add(this.scope);
  }
  unset(key: string): void {
    const k = String(key);
    if (!own(this.values, k)) return;
    delete this.values[k];
    this.stores.dirty.add(this.scope);
  }
  clear(): void {
    for (const k of Object.keys(this.values)) delete this.values[k];
    this.stores.dirty.add(this.scope);
  }
  toObject(): Values {
    return storable({ ...this.values }) as Values;
  }
  toJSON(): Values {
    return this.toObject();
  }
  replaceIn(template: unknown): unknown {
    return replaceIn(template, (name) => (this.has(name) ? { found: true, value: this.values[name] } : { found: false, value: undefined }));
  }
}

/** pm.iterationData: the data scope, read-mostly. */
export class IterationData extends VariableScope {
  override set(): void {
    throw new TypeError("pm.iterationData is read-only; use pm.variables.set for a local value");
  }
  override clear(): void {
    throw new TypeError("pm.iterationData is read-only");
  }
}

/** pm.variables: reads with precedence (local > data > environment > collection > globals), writes the local scope. */
export class Variables extends VariableScope {
  constructor(stores: Stores) {
    super(stores, "local");
  }
  override has(key: string): boolean {
    return this.stores.resolve(String(key)).found;
  }
  override get(key: string): unknown {
    return this.stores.resolve(String(key)).value;
  }
  override toObject(): Values {
    return storable(this.stores.merged()) as Values;
  }
  override replaceIn(template: unknown): unknown {
    return replaceIn(template, (name) => this.stores.resolve(name));
  }
}

const FIRST = ["Ada", "Grace", "Alan", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Edsger"];
const LAST = ["Lovelace", "Hopper", "Turing", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen", "Dijkstra"];
const pick = (list: string[]) => list[Math.floor(Math.random() * list.length)];

export function uuidv4(): string {
  const hex = "0123456789abcdef";
  let out = "";
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) out += "-";
    else if (i === 14) out += "4";
    else if (i === 19) out += hex[8 + Math.floor(Math.random() * 4)];
    else out += hex[Math.floor(Math.random() * 16)];
  }
  return out;
}

/** The few of Postman's `{{$dynamic}}` variables scripts use most; others are left as written. */
const DYNAMIC: Record<string, () => string> = {
  $guid: uuidv4,
  $randomUUID: uuidv4,
  $timestamp: () => String(Math.floor(Date.now() / 1000)),
  $isoTimestamp: () => new Date().toISOString(),
  $randomInt: () => String(Math.floor(Math.random() * 1001)),
  $randomBoolean: () => String(Math.random() < 0.5),
  $randomFirstName: () => pick(FIRST),
  $randomLastName: () => pick(LAST),
  $randomFullName: () => `${pick(FIRST)} ${pick(LAST)}`,
  $randomEmail: () => `${pick(FIRST).toLowerCase()}.${pick(LAST).toLowerCase()}@example.com`,
  $randomAlphaNumeric: () => "abcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(Math.random() * 36)],
};
