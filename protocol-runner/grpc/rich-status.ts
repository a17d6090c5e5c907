// Rich gRPC errors: a mock's `response.errorDetails` become a google.rpc.Status
// (code, message, details as Any of the google.rpc error detail messages),
// encoded with protobufjs for the `grpc-status-details-bin` trailer, which
// clients decode as the standard richer error model.
import protobuf from "protobufjs";
import type { MockResponse } from "@/server/contracts/mock";

type ErrorDetail = NonNullable<MockResponse["errorDetails"]>[number];

// google/rpc/status.proto and error_details.proto, as published by googleapis.
const RPC_PROTO = `
syntax = "proto3";
package google.rpc;
import "google/protobuf/any.proto";
import "google/protobuf/duration.proto";
message Status { int32 code = 1; string message = 2; repeated google.protobuf.Any details = 3; }
message RetryInfo { google.protobuf.Duration retry_delay = 1; }
message DebugInfo { repeated string stack_entries = 1; string detail = 2; }
message QuotaFailure { message Violation { string subject = 1; string description = 2; } repeated Violation violations = 1; }
message ErrorInfo { string reason = 1; string domain = 2; map<string, string> metadata = 3; }
message PreconditionFailure { message Violation { string type = 1; string subject = 2; string description = 3; } repeated Violation violations = 1; }
message BadRequest { message FieldViolation { string field = 1; string description = 2; string reason = 3; LocalizedMessage localized_message = 4; } repeated FieldViolation field_violations = 1; }
message RequestInfo { string request_id = 1; string serving_data = 2; }
message ResourceInfo { string resource_type = 1; string resource_name = 2; string owner = 3; string description = 4; }
message Help { message Link { string description = 1; string url = 2; } repeated Link links = 1; }
message LocalizedMessage { string locale = 1; string message = 2; }
`;

const TYPE_NAMES: Record<ErrorDetail["type"], string> = {
  badRequest: "BadRequest",
  help: "Help",
  debugInfo: "DebugInfo",
  errorInfo: "ErrorInfo",
  localizedMessage: "LocalizedMessage",
  preconditionFailure: "PreconditionFailure",
  quotaFailure: "QuotaFailure",
  requestInfo: "RequestInfo",
  resourceInfo: "ResourceInfo",
  retryInfo: "RetryInfo",
};

let root: protobuf.Root | undefined;

/** The google.rpc types (Status and the error details), for encoding here and decoding in tests. */
export function rpcTypes(): protobuf.Root {
  if (!root) {
    root = new protobuf.Root();
    for (const file of ["google/protobuf/any.proto", "google/protobuf/duration.proto"]) root.addJSON(protobuf.common.get(file)!.nested!);
    protobuf.parse(RPC_PROTO, root, { keepCase: false });
    root.resolveAll();
  }
  return root;
}

/** Thrown when a detail's fields do not fit its google.rpc message. */
export class DetailError extends Error {}

/** The encoded google.rpc.Status; detail fields are the message's JSON form (camelCase or snake_case names). */
export function encodeRichStatus(code: number, message: string, details: ErrorDetail[]): Buffer {
  const types = rpcTypes();
  const any = details.map((d, i) => {
    const type = types.lookupType(`google.rpc.${TYPE_NAMES[d.type]}`);
    const fields = camelKeys(d.details ?? {}) as Record<string, unknown>;
    const problem = type.verify(fields);
    if (problem) throw new DetailError(`errorDetails[${i}] (${d.type}): ${problem}`);
    return { type_url: `type.googleapis.com/google.rpc.${TYPE_NAMES[d.type]}`, value: type.encode(type.fromObject(fields)).finish() };
  });
  const status = types.lookupType("google.rpc.Status");
  return Buffer.from(status.encode(status.fromObject({ code, message, details: any })).finish());
}

function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), k === "metadata" ? v : camelKeys(v)]));
}
