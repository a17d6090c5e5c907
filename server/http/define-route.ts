// The plumbing under every /api/v1 route handler: request id, rate limits,
// authentication, namespace resolution, parsing with the endpoint's zod
// contract, and one error envelope. Route files stay a few lines long:
//
//   export const POST = defineRoute(authEndpoints.createToken, ({ actor, body }) => createToken(actor, body));
import type { z } from "zod";
import type { Actor } from "@/server/auth/actor";
import { permissionForMethod, requireAdminPermission } from "@/server/auth/admin-permission";
import { authenticate, bearerFrom } from "@/server/auth/authenticate";
import type { Endpoint } from "@/server/contracts/endpoint";
import { env } from "@/server/env";
import { AppError, errors, toEnvelope } from "@/server/errors";
import { logger } from "@/server/lib/logger";
import { type NamespaceScope, resolveNamespaceFor } from "@/server/services/namespace-access";
import { enforceRateLimit } from "@/server/services/rate-limit";
import { requestedNamespace } from "./body-namespace";
import { readJsonBody } from "./read-body";
import { clientIp, PATH_NAMESPACE_HEADER, requestIdFrom } from "./request-meta";
import { validationError } from "@/server/validation-error";

type Infer<T> = [NonNullable<T>] extends [never] ? undefined : NonNullable<T> extends z.ZodType ? z.output<NonNullable<T>> : undefined;

export interface RouteInput<E extends Endpoint> {
  req: Request;
  requestId: string;
  ip: string;
  actor: E["auth"] extends "none" ? Actor | null : Actor;
  namespace: E["namespaced"] extends true ? NamespaceScope : E["namespaced"] extends "when-named" ? NamespaceScope | undefined : undefined;
  params: Infer<E["params"]>;
  query: Infer<E["query"]>;
  body: Infer<E["body"]>;
}

/** A handler result with a non-default status, headers or cookies. */
export class Reply {
  constructor(
    readonly body: unknown,
    readonly init: { status?: number; headers?: Record<string, string | string[]> } = {},
  ) {}
}

type Handler<E extends Endpoint> = (input: RouteInput<E>) => Promise<unknown> | unknown;
type NextContext = { params: Promise<Record<string, string | string[] | undefined>> };

export function defineRoute<E extends Endpoint>(endpoint: E, handler: Handler<E>) {
  return async function routeHandler(req: Request, ctx?: NextContext): Promise<Response> {
    const requestId = requestIdFrom(req.headers);
    const ip = clientIp(req.headers);
    try {
      const input = await prepare(endpoint, req, ctx, requestId, ip);
      const result = await handler(input as RouteInput<E>);
      return toResponse(endpoint, result, requestId);
    } catch (err) {
      return errorResponse(err, requestId, { route: `${endpoint.method} ${endpoint.path}` });
    }
  };
}

async function prepare(endpoint: Endpoint, req: Request, ctx: NextContext | undefined, requestId: string, ip: string) {
  if (endpoint.rateLimit === "auth") await enforceRateLimit(`ip:${ip}:auth`, env().RATE_LIMIT_AUTH_PER_MINUTE);

  const actor = await authenticateFor(endpoint, req, ip);
  if (endpoint.auth !== "none" && !actor) throw errors.unauthorized();
  if (actor?.credentialId) await enforceRateLimit(`cred:${actor.credentialId}`, env().RATE_LIMIT_API_PER_MINUTE);
  if (endpoint.auth === "admin" && actor) requireAdminPermission(actor, endpoint.permission ?? permissionForMethod(endpoint.method));

  const rawParams = (ctx ? await ctx.params : undefined) ?? {};
  refuseNul(rawParams, "path");
  const params = endpoint.params ? parse(endpoint.params, rawParams, "path") : undefined;
  const url = new URL(req.url);
  const rawQuery = Object.fromEntries(url.searchParams);
  refuseNul(rawQuery, "query");
  for (const h of ["x-service-namespace", "x-namespace", PATH_NAMESPACE_HEADER]) refuseNul({ [h]: req.headers.get(h) }, "header");
  const query = endpoint.query ? parse(endpoint.query, rawQuery, "query") : undefined;
  let body: unknown;
  if (endpoint.body) {
    body = parse(endpoint.body, (await readJsonBody(req, env().MAX_BODY_BYTES)) ?? {}, "body");
  }

  let namespace: NamespaceScope | undefined;
  if (actor && endpoint.namespaced) {
    const named = requestedNamespace(req, url, body);
    // A "when-named" route given no name finds the namespace itself (endpoint.namespaceFallback).
    if (named !== undefined || endpoint.namespaced === true) namespace = await resolveNamespaceFor(actor, named, endpoint.permission);
  } else if (actor && endpoint.permission && !actor.permissions.includes(endpoint.permission)) {
    throw errors.forbidden(`This needs a credential with '${endpoint.permission}' permission`);
  }

  return { req, requestId, ip, actor, namespace, params, query, body };
}

// PostgreSQL text cannot hold U+0000: a 400 here instead of a database error later.
function refuseNul(values: Record<string, unknown>, location: "path" | "query" | "header") {
  for (const [field, value] of Object.entries(values)) {
    if (typeof value === "string" && value.includes("\0")) {
      throw errors.validation("Text may not contain NUL characters", [{ location, field, message: "contains U+0000" }]);
    }
  }
}

/**
 * On anonymous endpoints (login, reset…) a stale session cookie is simply no
 * session: otherwise a browser whose session ended elsewhere could not log in
 * again. A bad bearer token is still an error there.
 */
async function authenticateFor(endpoint: Endpoint, req: Request, ip: string) {
  if (endpoint.auth !== "none") return authenticate(req.headers, ip);
  try {
    return await authenticate(req.headers, ip);
  } catch (err) {
    if (err instanceof AppError && err.code === "unauthorized" && !bearerFrom(req.headers)) return null;
    throw err;
  }
}

function parse(schema: z.ZodType, value: unknown, location: "path" | "query" | "body") {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, location);
  return result.data;
}

function toResponse(endpoint: Endpoint, result: unknown, requestId: string): Response {
  if (result instanceof Response) {
    result.headers.set("X-Request-Id", requestId);
    return result;
  }
  const reply = result instanceof Reply ? result : new Reply(result);
  const status = reply.init.status ?? endpoint.successStatus ?? 200;
  if (process.env.NODE_ENV === "test" && endpoint.response && status < 300) {
    // Keeps the OpenAPI document honest: a handler may not return what its contract does not say.
    const check = endpoint.response.safeParse(reply.body);
    if (!check.success) throw new Error(`Response of ${endpoint.method} ${endpoint.path} breaks its contract: ${check.error.message}`);
  }
  const headers = new Headers({ "Content-Type": "application/json", "X-Request-Id": requestId, "Cache-Control": "no-store" });
  for (const [name, value] of Object.entries(reply.init.headers ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Response(status === 204 ? null : JSON.stringify(reply.body ?? null), { status, headers });
}

export function errorResponse(err: unknown, requestId: string, context: Record<string, unknown> = {}): Response {
  const { status, body, headers } = toEnvelope(err, requestId);
  if (!(err instanceof AppError)) logger().error({ err, requestId, ...context }, "unhandled error");
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "X-Request-Id": requestId, "Cache-Control": "no-store", ...headers },
  });
}
