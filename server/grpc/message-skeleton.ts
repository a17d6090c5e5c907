// A JSON skeleton of a protobuf message: every field with a placeholder of its
// type, in the form a gRPC mock's response.payload takes (field names as in the
// .proto, 64-bit integers as strings, enums by name, bytes as base64 text), so
// the editor can start a payload that already fits the method's output type.
import protobuf from "protobufjs";

const LONG = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);
const NUMBER = new Set(["double", "float", "int32", "uint32", "sint32", "fixed32", "sfixed32"]);

function scalar(type: string): unknown {
  if (LONG.has(type)) return "0";
  if (NUMBER.has(type)) return 0;
  if (type === "bool") return false;
  // string, and bytes as (empty) base64 text
  return "";
}

function valueOf(field: protobuf.Field, seen: Set<string>): unknown {
  field.resolve();
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum) return Object.keys(resolved.values)[0] ?? "";
  if (resolved instanceof protobuf.Type) return messageSkeleton(resolved, seen);
  return scalar(field.type);
}

/**
 * Every field of `type` with a placeholder. Repeated scalars are an empty
 * list, repeated messages a list of one skeleton (so their shape shows), maps
 * an empty object. Only the first member of each oneof is filled, as a
 * message may set one. A message that contains itself (directly or further
 * down) is `{}` where it recurs, so the skeleton stays finite.
 */
export function messageSkeleton(type: protobuf.Type, seen: Set<string> = new Set()): Record<string, unknown> {
  if (seen.has(type.fullName)) return {};
  const inner = new Set(seen).add(type.fullName);
  const skipped = new Set<string>();
  for (const oneof of type.oneofsArray) for (const name of oneof.oneof.slice(1)) skipped.add(name);
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    if (skipped.has(field.name)) continue;
    if (field.map) out[field.name] = {};
    else if (field.repeated) {
      field.resolve();
      out[field.name] = field.resolvedType instanceof protobuf.Type ? [valueOf(field, inner)] : [];
    } else out[field.name] = valueOf(field, inner);
  }
  return out;
}

/**
 * The payload skeleton of a method's response: one message, or a list of one
 * message when the method streams its response (a JSON array payload is the
 * list of messages sent).
 */
export function responseSkeleton(type: protobuf.Type, responseStream: boolean): unknown {
  const one = messageSkeleton(type);
  return responseStream ? [one] : one;
}
