// gRPC status codes by name (google.rpc.Code), for the response's status picker.
export const GRPC_CODES = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
] as const;

/** The code a stored statusCode means to the runner: absent, 0 or 200 (the HTTP default) is OK; 1–16 itself; anything else UNKNOWN. */
export function grpcCodeOf(statusCode: unknown): number {
  if (statusCode === undefined || statusCode === 0 || statusCode === 200) return 0;
  return typeof statusCode === "number" && statusCode >= 1 && statusCode <= 16 ? statusCode : 2;
}
