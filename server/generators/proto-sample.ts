// An example message of a protobuf type for a generated gRPC mock's reply,
// in the JSON form a gRPC mock's payload takes (field names as in the
// .proto, enums by name, bytes as base64): every field set, nested messages
// to a bounded depth, repeated fields and maps with one item, the first
// member of each oneof, Timestamp and Duration as real times, and values the
// type leaves open as `$.fake.*` placeholders of the right kind (an int32
// never gets a float, a string field named `email` an e-mail), so every
// reply differs and still encodes. The mock editor's zero-valued skeleton
// (server/grpc/message-skeleton.ts) stays as it is: it shows a shape to fill.
import protobuf from "protobufjs";
import { NAME_FAKES } from "./schema-sample";

/** Messages nest this deep; a deeper or recurring message field is left unset (every proto3 message field is optional). */
export const MAX_DEPTH = 4;

const INT32 = new Set(["int32", "uint32", "sint32", "fixed32", "sfixed32"]);
const INT64 = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);

/** String fields whose name says what they hold, beyond the JSON-schema ones (protobuf has no `format`). */
const PROTO_NAME_FAKES: [RegExp, string][] = [
  [/^(id|uuid|guid|.+_id|.+Id)$/, "UUID"],
  [/^(name|full_?name|display_?name)$/i, "FullName"],
  [/^(title|headline|description|summary|message|comment|note|text)$/i, "Sentence"],
  [/(_at|_time|^timestamp|^time)$/i, "RFC3339"],
  [/^(date|.+_date)$/i, "Date"],
  [/^(ip|ip_?address)$/i, "IPv4"],
  [/^(host|hostname|domain)$/i, "Domain"],
  [/^currency(_?code)?$/i, "Currency"],
];

function stringValue(name: string): string {
  const fake = [...NAME_FAKES, ...PROTO_NAME_FAKES].find(([re]) => re.test(name))?.[1];
  return fake ? `$.fake.${fake}` : name;
}

function floatValue(name: string): string {
  if (/^(lat|latitude)$/i.test(name)) return "$.fake.Latitude";
  if (/^(lng|lon|long|longitude)$/i.test(name)) return "$.fake.Longitude";
  if (/(price|amount|cost|total)/i.test(name)) return "$.fake.Price";
  return "$.fake.Float";
}

/** Integers from generators that always fit 32 bits (Int is 0–100000). */
function intValue(name: string, type: string): string {
  if (/^age$/i.test(name)) return "$.fake.Age";
  if (/^port$/i.test(name)) return "$.fake.Port";
  // Epoch seconds outgrow uint32 in 2106 and int32 in 2038: only 64-bit fields get them.
  if (INT64.has(type) && /(_at|_time|^timestamp|^epoch)$/i.test(name)) return "$.fake.UnixTime";
  return "$.fake.Int";
}

function scalar(type: string, name: string): unknown {
  if (type === "string") return stringValue(name);
  if (type === "bool") return true;
  if (type === "bytes") return Buffer.from(name).toString("base64");
  if (type === "double" || type === "float") return floatValue(name);
  if (INT32.has(type) || INT64.has(type)) return intValue(name, type);
  return null;
}

/** Well-known types whose plain field-by-field form would not look like what they stand for. */
const WELL_KNOWN: Record<string, () => unknown> = {
  ".google.protobuf.Timestamp": () => ({ seconds: "$.fake.UnixTime", nanos: 0 }),
  ".google.protobuf.Duration": () => ({ seconds: 60, nanos: 0 }),
  // protobufjs's bundled struct.proto spells its fields in lowerCamel (stringValue), and so must a payload.
  ".google.protobuf.Struct": () => ({ fields: { key: { stringValue: "value" } } }),
  ".google.protobuf.Value": () => ({ stringValue: "value" }),
  ".google.protobuf.ListValue": () => ({ values: [{ stringValue: "value" }] }),
  ".google.protobuf.Any": () => ({}),
  ".google.protobuf.FieldMask": () => ({ paths: [] }),
};

const MAP_KEYS: Record<string, string> = { string: "key", bool: "true" };

/** Undefined: leave the field unset (too deep, or a message that contains itself). */
function valueOf(field: protobuf.Field, name: string, depth: number, seen: Set<string>): unknown {
  field.resolve();
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum) return Object.keys(resolved.values)[0];
  if (resolved instanceof protobuf.Type) return messageSample(resolved, depth + 1, seen);
  return scalar(field.type, name);
}

/** An example of `type`; `depth` counts the messages around it. Undefined when it is too deep or recurs. */
export function messageSample(type: protobuf.Type, depth = 0, seen: ReadonlySet<string> = new Set()): Record<string, unknown> | undefined {
  const known = WELL_KNOWN[type.fullName];
  if (known) return known() as Record<string, unknown>;
  if (depth >= MAX_DEPTH || seen.has(type.fullName)) return undefined;
  const inner = new Set(seen).add(type.fullName);
  // Only one member of a oneof may be set: the first.
  const later = new Set(type.oneofsArray.flatMap((o) => o.oneof.slice(1)));
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    if (later.has(field.name)) continue;
    const value = valueOf(field, field.name, depth, inner);
    if (value === undefined) {
      if (field.repeated || field.map) out[field.name] = field.map ? {} : [];
      continue;
    }
    if (field instanceof protobuf.MapField) {
      const key = MAP_KEYS[field.keyType] ?? "1";
      out[field.name] = { [key]: value };
    } else out[field.name] = field.repeated ? [value] : value;
  }
  return out;
}
