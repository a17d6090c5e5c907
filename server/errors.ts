// One error type for the whole service. Services throw AppErrors; the HTTP and
// tRPC adapters turn them into the error envelope:
//   {"error": "<message>", "code": "<code>", "request_id": "<id>", "details": ...}

export type ErrorCode =
  | "validation"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "rate_limit"
  | "unavailable"
  | "external"
  | "internal"
  | (string & {});

const STATUS_BY_CODE: Record<string, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limit: 429,
  unavailable: 503,
  external: 502,
  internal: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: unknown;
  /** Extra top-level fields of the envelope (e.g. duplicate_entity's matchLevel). */
  readonly extra?: Record<string, unknown>;
  /** Response headers the error implies (e.g. Retry-After). */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { status?: number; details?: unknown; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = opts.status ?? STATUS_BY_CODE[code] ?? 400;
    this.details = opts.details;
    this.extra = opts.extra;
    this.headers = opts.headers;
  }
}

export const errors = {
  validation: (message: string, details?: unknown) => new AppError("validation", message, { details }),
  unauthorized: (message = "Authentication required") => new AppError("unauthorized", message),
  forbidden: (message = "You do not have permission to do this") => new AppError("forbidden", message),
  notFound: (what = "Resource") => new AppError("not_found", `${what} not found`),
  conflict: (message: string, details?: unknown) => new AppError("conflict", message, { details }),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError("rate_limit", "Too many requests, retry later", {
      headers: { "Retry-After": String(retryAfterSeconds) },
      details: { retryAfterSeconds },
    }),
  unavailable: (message: string) => new AppError("unavailable", message),
};

export interface ErrorEnvelope {
  error: string;
  code: string;
  request_id: string;
  details?: unknown;
  [extra: string]: unknown;
}

/** The body of every 500 we did not mean: nothing of the failure reaches the caller but the request id (the log has the rest). */
export function internalErrorBody(requestId: string): ErrorEnvelope {
  return { error: "Internal server error", code: "internal", request_id: requestId };
}

export function toEnvelope(err: unknown, requestId: string): { status: number; body: ErrorEnvelope; headers: Record<string, string> } {
  if (err instanceof AppError) {
    const body: ErrorEnvelope = { error: err.message, code: err.code, request_id: requestId, ...err.extra };
    if (err.details !== undefined) body.details = err.details;
    return { status: err.status, body, headers: err.headers ?? {} };
  }
  return {
    status: 500,
    body: internalErrorBody(requestId),
    headers: {},
  };
}
