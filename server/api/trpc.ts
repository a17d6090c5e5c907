// tRPC plumbing for the UI (t3 layout): the context, the error shape and the
// procedure builders. Procedures in ./routers stay one call to a service; the
// rules that define-route applies to REST (authentication, rate limits,
// admin role, credential permissions) are applied here the same way.
import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import type { Actor } from "@/server/auth/actor";
import { requireAdminPermission } from "@/server/auth/admin-permission";
import { authenticate, type AuthHeaders } from "@/server/auth/authenticate";
import type { Permission } from "@/server/contracts/endpoint";
import { env } from "@/server/env";
import { AppError, errors } from "@/server/errors";
import { clientIp, requestIdFrom } from "@/server/http/request-meta";
import { validationError } from "@/server/validation-error";
import { logger } from "@/server/lib/logger";
import { unstorableText } from "@/server/lib/storable-text";
import { enforceRateLimit } from "@/server/services/rate-limit";

export interface TrpcContext {
  actor: Actor | null;
  /** A credential that was present but bad (expired session, revoked token): reported by protected procedures. */
  authError: AppError | null;
  ip: string;
  userAgent: string | null;
  requestId: string;
}

export async function createTrpcContext(opts: { headers: AuthHeaders }): Promise<TrpcContext> {
  const ip = clientIp(opts.headers);
  const base = { ip, userAgent: opts.headers.get("user-agent"), requestId: requestIdFrom(opts.headers) };
  try {
    return { ...base, actor: await authenticate(opts.headers, ip), authError: null };
  } catch (err) {
    // Public procedures (the login page's provider list, password reset) must
    // still work for a browser that carries a stale cookie.
    if (err instanceof AppError) return { ...base, actor: null, authError: err };
    throw err;
  }
}

/** A field name and what is wrong with it, as forms show it. */
export type FieldErrors = Record<string, string>;

function fieldErrorsOf(details: unknown, fallback: string): FieldErrors {
  const out: FieldErrors = {};
  const list = Array.isArray(details) ? details : details && typeof details === "object" ? [details] : [];
  for (const item of list) {
    if (!item || typeof item !== "object") continue;
    const { field, message } = item as { field?: unknown; message?: unknown };
    if (typeof field === "string" && field && !(field in out)) out[field] = typeof message === "string" ? message : fallback;
  }
  return out;
}

const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  429: "TOO_MANY_REQUESTS",
  502: "BAD_GATEWAY",
  503: "SERVICE_UNAVAILABLE",
};

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error, ctx }) {
    const app = error.cause instanceof AppError ? error.cause : null;
    return {
      message: shape.message,
      code: shape.code,
      data: {
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        /** The AppError code (snake_case, as in the REST envelope), not tRPC's. */
        code: app?.code ?? (shape.data.code === "INTERNAL_SERVER_ERROR" ? "internal" : shape.data.code.toLowerCase()),
        details: app?.details ?? null,
        fieldErrors: app ? fieldErrorsOf(app.details, app.message) : {},
        /** The REST envelope's extra top-level fields (duplicate_entity's matchLevel and existing). */
        extra: app?.extra ?? null,
        requestId: ctx?.requestId ?? null,
      },
    };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Turns what a procedure threw into the error the client sees: AppErrors keep
 * their message and code, an input that fails its zod contract becomes the same
 * validation error REST returns (with the field list), anything else is logged
 * and reported as an internal error without its message.
 */
const appErrors = t.middleware(async ({ next, path, ctx }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  if (cause instanceof AppError) {
    throw new TRPCError({ code: TRPC_CODE_BY_STATUS[cause.status] ?? "INTERNAL_SERVER_ERROR", message: cause.message, cause });
  }
  if (cause instanceof ZodError) {
    const appError = validationError(cause, "body");
    throw new TRPCError({ code: "BAD_REQUEST", message: appError.message, cause: appError });
  }
  if (result.error.code === "INTERNAL_SERVER_ERROR") {
    logger().error({ err: cause ?? result.error, path, requestId: ctx.requestId }, "unhandled tRPC error");
    throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "Internal server error" });
  }
  return result;
});

/** The same refusal REST's readJsonBody gives: text PostgreSQL cannot hold is a 400 naming the field. */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const unstorable = unstorableText(await getRawInput());
  if (unstorable) throw errors.validation(unstorable.error, [{ location: "body", field: unstorable.field, message: unstorable.message }]);
  return next();
});

export const publicProcedure = t.procedure.use(appErrors).use(storableInput);

/** Anonymous authentication helpers (password reset, e-mail verification) share REST's per-IP limit. */
export const authRateLimitedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  await enforceRateLimit(`ip:${ctx.ip}:auth`, env().RATE_LIMIT_AUTH_PER_MINUTE);
  return next();
});

export const protectedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (!ctx.actor) throw ctx.authError ?? errors.unauthorized();
  if (ctx.actor.credentialId) await enforceRateLimit(`cred:${ctx.actor.credentialId}`, env().RATE_LIMIT_API_PER_MINUTE);
  return next({ ctx: { ...ctx, actor: ctx.actor } });
});

/** A procedure that needs the caller's credential to carry `permission` (sessions carry all three). */
export function permissionProcedure(permission: Permission) {
  return protectedProcedure.use(({ ctx, next }) => {
    if (!ctx.actor.permissions.includes(permission)) {
      throw errors.forbidden(`This needs a credential with '${permission}' permission`);
    }
    return next();
  });
}

/**
 * Admin role plus the credential permission the call needs, as REST's admin
 * endpoints: queries read, mutations write (deletions use adminDeleteProcedure).
 */
export const adminProcedure = protectedProcedure.use(({ ctx, type, next }) => {
  requireAdminPermission(ctx.actor, type === "query" ? "read" : "write");
  return next();
});

/** An admin mutation that deletes something: needs the credential's `delete` permission. */
export const adminDeleteProcedure = protectedProcedure.use(({ ctx, next }) => {
  requireAdminPermission(ctx.actor, "delete");
  return next();
});
