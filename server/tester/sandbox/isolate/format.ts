// Inside the isolate: console arguments to one readable line, close to what
// Node's util.inspect prints (strings bare at the top, objects as literals,
// depth and item counts bounded so one log of a huge object stays small).
const MAX_DEPTH = 3;
const MAX_ITEMS = 100;
const MAX_NESTED_STRING = 10_000;
const LINE_WIDTH = 72;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function formatArgs(args: unknown[]): string {
  const parts: string[] = [];
  let rest = args;
  if (typeof args[0] === "string" && args[0].includes("%") && args.length > 1) {
    const [text, used] = applyFormat(args[0], args.slice(1));
    parts.push(text);
    rest = args.slice(1 + used);
  } else if (args.length) {
    parts.push(top(args[0]));
    rest = args.slice(1);
  }
  for (const a of rest) parts.push(top(a));
  return parts.join(" ");
}

function top(v: unknown): string {
  return typeof v === "string" ? v : inspect(v);
}

function applyFormat(format: string, args: unknown[]): [string, number] {
  let used = 0;
  const text = format.replace(/%[sdifjoOc%]/g, (spec) => {
    if (spec === "%%") return "%";
    if (used >= args.length) return spec;
    const a = args[used++];
    switch (spec) {
      case "%s":
        return typeof a === "string" ? a : inspect(a, 1);
      case "%d":
      case "%i":
        return typeof a === "bigint" ? `${a}n` : String(spec === "%i" ? Math.trunc(Number(a)) : Number(a));
      case "%f":
        return String(Number(a));
      case "%j":
        try {
          return JSON.stringify(a) ?? "undefined";
        } catch {
          return "[Circular]";
        }
      case "%c":
        return "";
      default:
        return inspect(a);
    }
  });
  return [text, used];
}

export function inspect(v: unknown, depth = MAX_DEPTH): string {
  return value(v, depth, []);
}

function quote(s: string): string {
  const cut = s.length > MAX_NESTED_STRING ? `${s.slice(0, MAX_NESTED_STRING)}... ${s.length - MAX_NESTED_STRING} more characters` : s;
  return `'${cut.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n")}'`;
}

function value(v: unknown, depth: number, seen: object[]): string {
  switch (typeof v) {
    case "string":
      return quote(v);
    case "number":
      return Object.is(v, -0) ? "-0" : String(v);
    case "bigint":
      return `${v}n`;
    case "symbol":
      return v.toString();
    case "undefined":
      return "undefined";
    case "boolean":
      return String(v);
    case "function": {
      const src = Function.prototype.toString.call(v);
      const name = (v as { name?: unknown }).name;
      const label = typeof name === "string" && name ? name : "";
      return src.startsWith("class") ? `[class ${label || "(anonymous)"}]` : `[Function: ${label || "(anonymous)"}]`;
    }
  }
  if (v === null) return "null";
  const obj = v as object;
  if (seen.includes(obj)) return "[Circular]";
  if (obj instanceof Error) return typeof obj.stack === "string" && obj.stack ? obj.stack : `${obj.name}: ${obj.message}`;
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? "Invalid Date" : obj.toISOString();
  if (obj instanceof RegExp) return String(obj);
  if (obj instanceof Promise) return "Promise { <pending> }";
  // The pm objects (Response, Request, Url, lists, scopes) print as their JSON form under their Postman name.
  const tag = (obj as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag];
  const toJSON = (obj as { toJSON?: unknown }).toJSON;
  if (typeof tag === "string" && typeof toJSON === "function" && !Array.isArray(obj)) {
    seen.push(obj);
    try {
      const plain = toJSON.call(obj);
      return `${tag} ${value(plain, depth, seen)}`;
    } finally {
      seen.pop();
    }
  }
  if (depth < 0) return Array.isArray(obj) ? "[Array]" : "[Object]";
  seen.push(obj);
  try {
    if (Array.isArray(obj)) return list("", "[", "]", items(obj.slice(0, MAX_ITEMS), depth, seen), obj.length - MAX_ITEMS);
    if (obj instanceof Map) {
      const parts = [...obj].slice(0, MAX_ITEMS).map(([k, val]) => `${value(k, depth - 1, seen)} => ${value(val, depth - 1, seen)}`);
      return list(`Map(${obj.size}) `, "{", "}", parts, obj.size - MAX_ITEMS);
    }
    if (obj instanceof Set) return list(`Set(${obj.size}) `, "{", "}", items([...obj].slice(0, MAX_ITEMS), depth, seen), obj.size - MAX_ITEMS);
    const keys = Object.keys(obj);
    const parts = keys.slice(0, MAX_ITEMS).map((k) => `${IDENTIFIER.test(k) ? k : quote(k)}: ${value((obj as Record<string, unknown>)[k], depth - 1, seen)}`);
    const ctor = Object.getPrototypeOf(obj)?.constructor?.name;
    const prefix = typeof ctor === "string" && ctor && ctor !== "Object" ? `${ctor} ` : "";
    return list(prefix, "{", "}", parts, keys.length - MAX_ITEMS);
  } finally {
    seen.pop();
  }
}

function items(values: unknown[], depth: number, seen: object[]): string[] {
  return values.map((x) => value(x, depth - 1, seen));
}

function list(prefix: string, open: string, close: string, parts: string[], more: number): string {
  if (more > 0) parts.push(`... ${more} more item${more === 1 ? "" : "s"}`);
  if (!parts.length) return `${prefix}${open}${close}`;
  const oneLine = `${prefix}${open} ${parts.join(", ")} ${close}`;
  if (oneLine.length <= LINE_WIDTH && !oneLine.includes("\n")) return oneLine;
  return `${prefix}${open}\n${parts.map((p) => `  ${p.replace(/\n/g, "\n  ")}`).join(",\n")}\n${close}`;
}

/** UTF-8 length, the unit of the log byte limit (a surrogate pair is 4 bytes: 2 per half). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    n += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return n;
}
