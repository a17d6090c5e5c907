// Inside the isolate: a small JSON Schema validator for
// pm.response.to.have.jsonSchema and tv4.validate. Covers the keywords
// response checks use (draft 4 to 2020-12 spellings, local $ref, common
// formats); unknown keywords are ignored, as Ajv does outside strict mode.
type Schema = Record<string, unknown> | boolean;

export interface SchemaError {
  path: string;
  message: string;
}

const FORMATS: Record<string, RegExp> = {
  "date-time": /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  ipv4: /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/,
};

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function matchesType(v: unknown, type: string): boolean {
  const actual = typeOf(v);
  return actual === type || (type === "number" && actual === "integer");
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

export function validateSchema(data: unknown, schema: unknown): SchemaError[] {
  const root = schema as Schema;
  const errors: SchemaError[] = [];
  const resolve = (ref: string): Schema => {
    if (ref === "#") return root;
    if (!ref.startsWith("#/")) throw new Error(`jsonSchema: only local $ref values ("#/…") are supported, not ${show(ref)}`);
    let node: unknown = root;
    for (const part of ref.slice(2).split("/")) node = (node as Record<string, unknown> | undefined)?.[decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~")];
    if (node === undefined) throw new Error(`jsonSchema: $ref ${show(ref)} points nowhere`);
    return node as Schema;
  };
  const check = (v: unknown, s: Schema, path: string, out: SchemaError[], depth: number): void => {
    if (depth > 64) throw new Error("jsonSchema: the schema nests too deeply (a $ref loop?)");
    if (s === true || s === undefined) return;
    if (s === false) return void out.push({ path, message: "should not exist" });
    const fail = (message: string) => out.push({ path, message });
    if (typeof s.$ref === "string") return check(v, resolve(s.$ref), path, out, depth + 1);
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
      if (!types.some((t) => matchesType(v, t))) return void fail(`should be ${types.join(",")}`);
    }
    if (Array.isArray(s.enum) && !s.enum.some((e) => deepEqual(e, v))) fail("should be equal to one of the allowed values");
    if ("const" in s && !deepEqual(s.const, v)) fail(`should be equal to constant ${show(s.const)}`);
    for (const key of ["allOf", "anyOf", "oneOf"] as const) {
      const list = s[key];
      if (!Array.isArray(list)) continue;
      const passing = list.filter((sub) => {
        const inner: SchemaError[] = [];
        check(v, sub as Schema, path, inner, depth + 1);
        if (key === "allOf") out.push(...inner);
        return inner.length === 0;
      }).length;
      if (key === "anyOf" && passing === 0) fail("should match some schema in anyOf");
      if (key === "oneOf" && passing !== 1) fail("should match exactly one schema in oneOf");
    }
    if (s.not !== undefined) {
      const inner: SchemaError[] = [];
      check(v, s.not as Schema, path, inner, depth + 1);
      if (!inner.length) fail("should NOT be valid");
    }
    if (s.if !== undefined) {
      const inner: SchemaError[] = [];
      check(v, s.if as Schema, path, inner, depth + 1);
      const branch = inner.length ? s.else : s.then;
      if (branch !== undefined) check(v, branch as Schema, path, out, depth + 1);
    }
    if (typeof v === "string") {
      const length = [...v].length;
      if (typeof s.minLength === "number" && length < s.minLength) fail(`should NOT be shorter than ${s.minLength} characters`);
      if (typeof s.maxLength === "number" && length > s.maxLength) fail(`should NOT be longer than ${s.maxLength} characters`);
      if (typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(v)) fail(`should match pattern "${s.pattern}"`);
      const format = typeof s.format === "string" ? FORMATS[s.format] : undefined;
      if (format && !format.test(v)) fail(`should match format "${s.format}"`);
    }
    if (typeof v === "number") {
      const exMin = s.exclusiveMinimum;
      const exMax = s.exclusiveMaximum;
      if (typeof s.minimum === "number" && (exMin === true ? v <= s.minimum : v < s.minimum)) fail(`should be ${exMin === true ? ">" : ">="} ${s.minimum}`);
      if (typeof s.maximum === "number" && (exMax === true ? v >= s.maximum : v > s.maximum)) fail(`should be ${exMax === true ? "<" : "<="} ${s.maximum}`);
      if (typeof exMin === "number" && v <= exMin) fail(`should be > ${exMin}`);
      if (typeof exMax === "number" && v >= exMax) fail(`should be < ${exMax}`);
      if (typeof s.multipleOf === "number" && s.multipleOf > 0 && Math.abs(v / s.multipleOf - Math.round(v / s.multipleOf)) > 1e-9) fail(`should be multiple of ${s.multipleOf}`);
    }
    if (Array.isArray(v)) {
      if (typeof s.minItems === "number" && v.length < s.minItems) fail(`should NOT have fewer than ${s.minItems} items`);
      if (typeof s.maxItems === "number" && v.length > s.maxItems) fail(`should NOT have more than ${s.maxItems} items`);
      if (s.uniqueItems === true && v.some((x, i) => v.findIndex((y) => deepEqual(x, y)) !== i)) fail("should NOT have duplicate items");
      const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
      const rest = tuple ? (Array.isArray(s.items) ? s.additionalItems : s.items) : s.items;
      v.forEach((item, i) => {
        const sub = tuple && i < tuple.length ? tuple[i] : rest;
        if (sub !== undefined) check(item, sub as Schema, `${path}[${i}]`, out, depth + 1);
      });
      if (s.contains !== undefined && !v.some((item) => {
        const inner: SchemaError[] = [];
        check(item, s.contains as Schema, path, inner, depth + 1);
        return !inner.length;
      })) fail("should contain a valid item");
    }
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const obj = v as Record<string, unknown>;
      const keys = Object.keys(obj);
      if (Array.isArray(s.required)) for (const k of s.required as string[]) if (!(k in obj)) fail(`should have required property '${k}'`);
      if (typeof s.minProperties === "number" && keys.length < s.minProperties) fail(`should NOT have fewer than ${s.minProperties} properties`);
      if (typeof s.maxProperties === "number" && keys.length > s.maxProperties) fail(`should NOT have more than ${s.maxProperties} properties`);
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const patterns = Object.entries((s.patternProperties ?? {}) as Record<string, Schema>).map(([p, sub]) => [new RegExp(p, "u"), sub] as const);
      for (const k of keys) {
        const childPath = /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${show(k)}]`;
        let known = false;
        if (Object.prototype.hasOwnProperty.call(props, k)) {
          known = true;
          check(obj[k], props[k], childPath, out, depth + 1);
        }
        for (const [re, sub] of patterns) {
          if (!re.test(k)) continue;
          known = true;
          check(obj[k], sub, childPath, out, depth + 1);
        }
        if (!known && s.additionalProperties !== undefined) {
          if (s.additionalProperties === false) fail(`should NOT have additional property '${k}'`);
          else check(obj[k], s.additionalProperties as Schema, childPath, out, depth + 1);
        }
      }
    }
  };
  check(data, root, "data", errors, 0);
  return errors;
}

/** tv4's two calls Postman's older docs use, over the same validator. */
export function makeTv4() {
  const tv4 = {
    error: null as null | { message: string; dataPath: string },
    validate(data: unknown, schema: unknown): boolean {
      const errors = validateSchema(data, schema);
      tv4.error = errors.length ? { message: errors[0].message, dataPath: errors[0].path } : null;
      return errors.length === 0;
    },
    validateResult(data: unknown, schema: unknown) {
      const valid = tv4.validate(data, schema);
      return { valid, error: tv4.error, missing: [] };
    },
  };
  return tv4;
}
