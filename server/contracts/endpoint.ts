// An endpoint contract: what a route accepts and returns. The same object
// drives request parsing (server/http/define-route.ts), the OpenAPI document
// (server/http/openapi.ts) and the tests that check every route is documented.
import type { z } from "zod";

export type Permission = "read" | "write" | "delete";
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type Schema = z.ZodType | undefined;

export interface Endpoint<P extends Schema = Schema, Q extends Schema = Schema, B extends Schema = Schema, R extends Schema = Schema> {
  method: HttpMethod;
  /** OpenAPI-style path, e.g. /api/v1/auth/tokens/{id}. */
  path: string;
  summary: string;
  tag: string;
  /** none: anonymous; user: session or credential; admin: admin role. */
  auth: "none" | "user" | "admin";
  /** Permission the caller needs (in the namespace when `namespaced`). */
  permission?: Permission;
  /**
   * Resolves the namespace from path form, query, header, JSON body or pinned
   * token. "when-named": only when the request names one; else the handler
   * finds it (id-only mock routes: across the caller's namespaces; uploads:
   * from a multipart `namespace` part), as `namespaceFallback` documents.
   */
  namespaced?: boolean | "when-named";
  /** For the OpenAPI document: what a "when-named" endpoint does when no namespace is named. */
  namespaceFallback?: string;
  /** Per-IP limit for anonymous authentication endpoints. */
  rateLimit?: "auth";
  params?: P;
  query?: Q;
  body?: B;
  response?: R;
  successStatus?: number;
  /**
   * Statuses the endpoint answers besides `successStatus` and the errors its
   * kind implies (400; 401/403 when authenticated; 404 with path parameters or
   * a namespace; 413 with a JSON body; 429 when rate limited), each with when.
   * A 2xx here carries `response` like the success status does, an error the
   * error envelope; `body: "response"` gives an error status the success
   * shape (e.g. /health's 503 with the failing checks).
   */
  statuses?: Readonly<Record<number, string | { description: string; body: "response" }>>;
  /** Response is not JSON (e.g. CSV export): its media types; "*\/*" for a stored file's own type. */
  produces?: string | readonly string[];
}

// `const` keeps literal fields (auth, namespaced) so handlers get precise types.
export function endpoint<const D extends Endpoint>(def: D): D {
  return def;
}
