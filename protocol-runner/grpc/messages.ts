// Protobuf messages as mocks see them: a request decoded to its JSON form
// (conditions and templates read it, field names as in the .proto), and a
// mock's rendered payload checked against the output type before encoding,
// so a payload that does not fit is a clear error rather than silently
// coerced bytes. Field names may be the .proto's or their lowerCamel JSON
// names; 64-bit integers may be strings and enums may be named.
import protobuf from "protobufjs";

export class MessageMismatch extends Error {}

export function decodeMessage(type: protobuf.Type, bytes: Buffer): Record<string, unknown> {
  return type.toObject(type.decode(bytes), { longs: String, enums: String, bytes: String, defaults: true, arrays: true, objects: true, oneofs: true });
}

const LONG = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);

function normalizeValue(field: protobuf.Field, value: unknown, where: string): unknown {
  if (field.resolvedType instanceof protobuf.Type) return normalize(field.resolvedType, value, where);
  if (field.resolvedType instanceof protobuf.Enum && typeof value === "string") {
    const n = field.resolvedType.values[value];
    if (n === undefined) throw new MessageMismatch(`${where}: '${value}' is not a value of ${field.resolvedType.fullName.slice(1)}`);
    return n;
  }
  if (LONG.has(field.type) && typeof value === "string" && /^-?\d+$/.test(value)) {
    const Long = protobuf.util.Long as unknown as { fromString(s: string, unsigned: boolean): unknown } | undefined;
    return Long ? Long.fromString(value, field.type.startsWith("u") || field.type === "fixed64") : Number(value);
  }
  return value;
}

function normalize(type: protobuf.Type, value: unknown, where: string): Record<string, unknown> {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new MessageMismatch(`${where}: expected a ${type.fullName.slice(1)} object, got ${Array.isArray(value) ? "a list" : value === null ? "null" : typeof value}`);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const field = type.fields[key] ?? type.fieldsArray.find((f) => f.name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) === key);
    if (!field) throw new MessageMismatch(`${where}: ${type.fullName.slice(1)} has no field '${key}'`);
    field.resolve();
    const at = `${where}.${key}`;
    if (v === null || v === undefined) continue;
    if (field.repeated && !Array.isArray(v)) throw new MessageMismatch(`${at}: expected a list`);
    if (field.map && (typeof v !== "object" || Array.isArray(v))) throw new MessageMismatch(`${at}: expected an object (a map)`);
    if (field.map) out[field.name] = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalizeValue(field, x, `${at}.${k}`)]));
    else if (field.repeated) out[field.name] = (v as unknown[]).map((x, i) => normalizeValue(field, x, `${at}[${i}]`));
    else out[field.name] = normalizeValue(field, v, at);
  }
  const problem = type.verify(out);
  if (problem) throw new MessageMismatch(`${where}: ${problem}`);
  return out;
}

/** The payload as bytes of `type`; throws MessageMismatch naming the offending field. */
export function encodeMessage(type: protobuf.Type, payload: unknown, where = "response"): Buffer {
  const plain = normalize(type, payload ?? {}, where);
  return Buffer.from(type.encode(type.fromObject(plain)).finish());
}
