// Inside the isolate: Postman's PropertyList (headers, query parameters,
// urlencoded fields, cookies): an ordered list of {key, value} with lookups
// by key, case-insensitive for headers as HTTP has them.
export interface Property {
  key: string;
  value: string | null;
  disabled?: boolean;
  [extra: string]: unknown;
}

type KeyOrItem = string | Property | ((item: Property) => boolean);

export class PropertyList {
  #items: Property[] = [];

  constructor(
    items: Iterable<Partial<Property>> = [],
    readonly caseInsensitive = false,
    private readonly parse: (text: string) => Property = (text) => ({ key: text, value: "" }),
    private readonly separator = "&",
    private readonly stringify: (item: Property) => string = (item) => (item.value === null ? item.key : `${item.key}=${item.value}`),
  ) {
    for (const item of items) this.add(item);
  }

  #same(a: string, b: string): boolean {
    return this.caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b;
  }

  #normalise(item: unknown): Property {
    if (typeof item === "string") return this.parse(item);
    const o = (item ?? {}) as Partial<Property> & { name?: unknown; enabled?: unknown };
    const key = String(o.key ?? o.name ?? "");
    const value = o.value === null || o.value === undefined ? (o.value === null ? null : "") : String(o.value);
    // Extra fields (a cookie's name, domain, path…) ride along, so items read back as they went in.
    const out: Property = { ...(o as Record<string, unknown>), key, value };
    delete out.enabled;
    delete out.disabled;
    if (o.disabled === true || o.enabled === false) out.disabled = true;
    return out;
  }

  #match(ref: KeyOrItem): (item: Property) => boolean {
    if (typeof ref === "function") return ref;
    const key = typeof ref === "string" ? ref : String(ref?.key ?? "");
    return (item) => this.#same(item.key, key);
  }

  get [Symbol.toStringTag](): string {
    return "PropertyList";
  }

  all(): Property[] {
    return this.#items.slice();
  }
  count(): number {
    return this.#items.length;
  }
  idx(i: number): Property | undefined {
    return this.#items[i];
  }
  one(key: string): Property | undefined {
    for (let i = this.#items.length - 1; i >= 0; i--) {
      const item = this.#items[i];
      if (!item.disabled && this.#same(item.key, String(key))) return item;
    }
    return undefined;
  }
  get(key: string): string | null | undefined {
    return this.one(key)?.value;
  }
  has(key: KeyOrItem, value?: unknown): boolean {
    const match = this.#match(key);
    return this.#items.some((item) => !item.disabled && match(item) && (value === undefined || item.value === String(value)));
  }
  indexOf(key: KeyOrItem): number {
    return this.#items.findIndex(this.#match(key));
  }
  add(item: unknown): void {
    this.#items.push(this.#normalise(item));
  }
  append(item: unknown): void {
    this.add(item);
  }
  prepend(item: unknown): void {
    this.#items.unshift(this.#normalise(item));
  }
  insert(item: unknown, before?: KeyOrItem): void {
    const at = before === undefined ? -1 : this.indexOf(before);
    if (at < 0) this.add(item);
    else this.#items.splice(at, 0, this.#normalise(item));
  }
  upsert(item: unknown): boolean {
    const next = this.#normalise(item);
    const existing = this.#items.find((i) => this.#same(i.key, next.key));
    if (!existing) {
      this.#items.push(next);
      return true;
    }
    existing.value = next.value;
    if (next.disabled) existing.disabled = true;
    else delete existing.disabled;
    return false;
  }
  remove(ref: KeyOrItem, _context?: unknown): void {
    const match = this.#match(ref);
    this.#items = this.#items.filter((item) => !match(item));
  }
  clear(): void {
    this.#items = [];
  }
  populate(items: unknown[]): void {
    for (const item of items) this.add(item);
  }
  repopulate(items: unknown[]): void {
    this.clear();
    this.populate(items);
  }
  each(fn: (item: Property, index: number) => void): void {
    this.#items.slice().forEach(fn);
  }
  forEach(fn: (item: Property, index: number) => void): void {
    this.each(fn);
  }
  map<T>(fn: (item: Property, index: number) => T): T[] {
    return this.#items.map(fn);
  }
  filter(fn: (item: Property, index: number) => boolean): Property[] {
    return this.#items.filter(fn);
  }
  find(fn: (item: Property, index: number) => boolean): Property | undefined {
    return this.#items.find(fn);
  }
  reduce<T>(fn: (acc: T, item: Property, index: number) => T, initial: T): T {
    return this.#items.reduce(fn, initial);
  }
  /** Like Postman's: later duplicates win; disabled entries left out unless asked for. */
  toObject(excludeDisabled = true, caseSensitive = !this.caseInsensitive, multiValue = false): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const item of this.#items) {
      if (excludeDisabled && item.disabled) continue;
      const key = caseSensitive ? item.key : item.key.toLowerCase();
      if (multiValue && Object.prototype.hasOwnProperty.call(out, key)) {
        const prev = out[key];
        out[key] = Array.isArray(prev) ? [...prev, item.value] : [prev, item.value];
      } else out[key] = item.value;
    }
    return out;
  }
  toString(): string {
    return this.#items
      .filter((item) => !item.disabled)
      .map(this.stringify)
      .join(this.separator);
  }
  toJSON(): Property[] {
    return this.#items.map((item) => ({ ...item }));
  }
  [Symbol.iterator](): Iterator<Property> {
    return this.#items.slice()[Symbol.iterator]();
  }
}

export function headerList(items: Iterable<Partial<Property>>): PropertyList {
  return new PropertyList(
    items,
    true,
    (text) => {
      const colon = text.indexOf(":");
      return colon < 0 ? { key: text.trim(), value: "" } : { key: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
    },
    "\n",
    (item) => `${item.key}: ${item.value ?? ""}`,
  );
}

export function queryList(items: Iterable<Partial<Property>>): PropertyList {
  return new PropertyList(items, false, parseQueryPair);
}

export function parseQueryPair(text: string): Property {
  const eq = text.indexOf("=");
  return eq < 0 ? { key: text, value: null } : { key: text.slice(0, eq), value: text.slice(eq + 1) };
}
