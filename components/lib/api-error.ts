// One way to read an error from either API: tRPC errors carry the REST
// envelope's code, field list and request id in `data`; REST calls made with
// postJson throw an ApiError built from the envelope itself.
import { TRPCClientError } from "@trpc/client";
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly fieldErrors: Record<string, string>,
    readonly requestId: string | null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

interface ErrorData {
  code?: string;
  fieldErrors?: Record<string, string>;
  requestId?: string | null;
}

function dataOf(error: unknown): ErrorData {
  if (error instanceof TRPCClientError) return (error.data ?? {}) as ErrorData;
  if (error instanceof ApiError) return { code: error.code, fieldErrors: error.fieldErrors, requestId: error.requestId };
  return {};
}

export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError && !error.data) return "Could not reach the server; check the connection and try again";
  if (error instanceof Error && error.message) return error.message;
  return "Something went wrong";
}

export function errorCode(error: unknown): string | undefined {
  return dataOf(error).code;
}

export function requestIdOf(error: unknown): string | null {
  return dataOf(error).requestId ?? null;
}

export function fieldErrorsOf(error: unknown): Record<string, string> {
  return dataOf(error).fieldErrors ?? {};
}

/**
 * Puts the server's per-field messages on the form's fields. Returns true when
 * at least one landed on a field the form has, so the caller can skip a
 * generic message that would only repeat it.
 */
export function applyFieldErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fields: readonly Path<T>[]): boolean {
  let applied = false;
  for (const [field, message] of Object.entries(fieldErrorsOf(error))) {
    const name = field as Path<T>;
    if (fields.includes(name)) {
      setError(name, { type: "server", message });
      applied = true;
    }
  }
  return applied;
}

/** POSTs JSON to a REST endpoint; resolves with the body or throws an ApiError from the error envelope. */
export async function postJson<T>(url: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError("Could not reach the server; check the connection and try again", "network", 0, {}, null);
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (res.ok) return json as T;
  const env = (json ?? {}) as { error?: string; code?: string; details?: unknown; request_id?: string };
  const fieldErrors: Record<string, string> = {};
  if (Array.isArray(env.details)) {
    for (const d of env.details as { field?: string; message?: string }[]) {
      if (d?.field && !(d.field in fieldErrors)) fieldErrors[d.field] = d.message ?? "invalid";
    }
  }
  throw new ApiError(env.error ?? `Request failed (${res.status})`, env.code ?? "internal", res.status, fieldErrors, env.request_id ?? res.headers.get("x-request-id"));
}

/** The error envelope's extra top-level fields (e.g. duplicate_entity's matchLevel and existing); null when none. */
export function extraOf(error: unknown): Record<string, unknown> | null {
  if (error instanceof TRPCClientError) return ((error.data ?? {}) as { extra?: Record<string, unknown> | null }).extra ?? null;
  return null;
}
