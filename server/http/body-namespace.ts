// How a request names its namespace: the path form, `?namespace=`, the
// X-Service-Namespace and X-Namespace headers, and a `namespace` field in its
// parsed JSON body (the Go client puts it there for mock create and batch,
// folders and stores; Java for store set). A body's name counts exactly like
// the query's; when the body and the rest disagree the request is ambiguous,
// and a 400 naming the body field beats silently writing to the wrong place.
// Only bodies whose contract declares `namespace` keep it after parsing, so
// a body field meaning something else (copy-to-namespace's source and
// target) never takes part. File uploads are not JSON: their multipart
// `namespace` part goes through the same rule (uploadNamespace).
import type { Actor } from "@/server/auth/actor";
import type { Permission } from "@/server/contracts/endpoint";
import { errors } from "@/server/errors";
import { type NamespaceScope, resolveNamespaceFor } from "@/server/services/namespace-access";
import { PATH_NAMESPACE_HEADER } from "./request-meta";

interface BodyName {
  name: string;
  /** Detail field, in the house's dotted form (`3.namespace` for a batch item). */
  field: string;
  /** How the message names it. */
  label: string;
}

/** Path form, query, then headers: the first one given wins (docs/decisions.md, Namespaces and roles). */
function namedOutsideBody(req: Request, url: URL): string | undefined {
  return req.headers.get(PATH_NAMESPACE_HEADER) ?? url.searchParams.get("namespace") ?? req.headers.get("x-service-namespace") ?? req.headers.get("x-namespace") ?? undefined;
}

// "" names nothing: clients serialise an unset namespace as an empty string.
function nameIn(value: unknown): string | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value) || !("namespace" in value)) return undefined;
  return typeof value.namespace === "string" && value.namespace !== "" ? value.namespace : undefined;
}

// An array body is a batch of mocks, each of which may carry its namespace.
function bodyNames(body: unknown): BodyName[] {
  if (Array.isArray(body)) {
    return body.flatMap((item, i) => {
      const name = nameIn(item);
      return name === undefined ? [] : [{ name, field: `${i}.namespace`, label: `mocks[${i}].namespace` }];
    });
  }
  const name = nameIn(body);
  return name === undefined ? [] : [{ name, field: "namespace", label: "namespace" }];
}

/**
 * The namespace the request names, or undefined when it names none (the
 * caller then falls back to the pinned credential's, else `sandbox`). Every
 * name in the body must agree with the path, query or header when one is
 * given, else with the body's first.
 */
export function requestedNamespace(req: Request, url: URL, body: unknown): string | undefined {
  const outside = namedOutsideBody(req, url);
  const inBody = bodyNames(body);
  const named = outside ?? inBody[0]?.name;
  // PostgreSQL text cannot hold U+0000: a 400 instead of a database error when the name is looked up.
  const nul = inBody.find((b) => b.name.includes("\0"));
  if (nul) throw errors.validation("Text may not contain NUL characters", [{ location: "body", field: nul.field, message: "contains U+0000" }]);
  const odd = inBody.find((b) => b.name !== named);
  if (odd) {
    const other = outside !== undefined ? "the path, query or header" : inBody[0].label;
    const message = `names namespace '${odd.name}' but ${other} names '${named}'`;
    throw errors.validation(`Invalid body field '${odd.label}': ${message}`, [{ location: "body", field: odd.field, message }]);
  }
  return named;
}

/**
 * The namespace of a file upload, whose body is not JSON: a multipart
 * `namespace` part counts like a JSON body's. Upload endpoints are
 * "when-named", so `named` is what defineRoute resolved from the path form,
 * query or header, if anything; the part must agree with it.
 */
export async function uploadNamespace(actor: Actor, req: Request, named: NamespaceScope | undefined, part: string | null, permission: Permission): Promise<NamespaceScope> {
  const name = requestedNamespace(req, new URL(req.url), { namespace: part ?? undefined });
  if (named && named.name === name) return named;
  return resolveNamespaceFor(actor, name, permission);
}
