// How a broker's failure reaches the caller: an unreachable or failing broker
// is the house's upstream error (502 `external`, the reason in `error`), a
// refused host is a 400, and the broker's own "not found" / "precondition
// failed" answers keep their meaning (404 / 409). Never a 500.
import { AppError } from "@/server/errors";
import { BlockedTargetError } from "@/server/lib/ssrf";
import { blocked } from "./broker-target";

export function upstream(what: string, reason: string): AppError {
  return new AppError("external", `${what}: ${reason}`, { status: 502, details: { reason } });
}

export function reasonOf(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    const inner = cause instanceof Error && cause.message && !err.message.includes(cause.message) ? ` (${cause.message})` : "";
    return `${err.message}${inner}`;
  }
  return String(err);
}

/** Runs `work` with a deadline; `cleanup` ends whatever it left open, also after the deadline. */
export async function withDeadline<T>(ms: number, what: string, work: () => Promise<T>, cleanup: () => Promise<void> | void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(upstream(what, `no answer within ${ms} ms`)), ms);
  });
  const attempt = work();
  try {
    return await Promise.race([attempt, late]);
  } finally {
    clearTimeout(timer);
    // A late attempt must not become an unhandled rejection.
    attempt.catch(() => {});
    await Promise.resolve(cleanup()).catch(() => {});
    void attempt.finally(() => cleanup()).catch(() => {});
  }
}

/** The AppError a thrown value becomes, given the field that named the target. */
export function toAppError(err: unknown, what: string, field: string, map?: (err: unknown) => AppError | undefined): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof BlockedTargetError) return blocked(err, field);
  return map?.(err) ?? upstream(what, reasonOf(err));
}
