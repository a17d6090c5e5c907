// Endpoints whose JSON body may name the namespace (spec: POST
// /api/v1/stores/global with body `key`, `value`, `namespace`). defineRoute
// resolves the namespace before the handler runs, from the path form, query,
// headers, the pinned credential, else `sandbox`; a namespace named only in
// the body must reach that resolution, or a caller who is not a member of
// sandbox would get 404 for a request that names their own namespace. This
// wrapper lifts a body's `namespace` into the query when the request names
// none otherwise; when it does name one, defineRoute resolves that and the
// service refuses a body that disagrees (400 naming body.namespace).
import { env } from "@/server/env";
import { readBodyText } from "./read-body";
import { errorResponse } from "./define-route";
import { PATH_NAMESPACE_HEADER, requestIdFrom } from "./request-meta";

type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[] | undefined>> }) => Promise<Response>;

// The explicit ways of naming a namespace that defineRoute reads, in its order.
function namesNamespace(req: Request): boolean {
  if (new URL(req.url).searchParams.has("namespace")) return true;
  return [PATH_NAMESPACE_HEADER, "x-service-namespace", "x-namespace"].some((h) => req.headers.has(h));
}

function namespaceIn(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && "namespace" in parsed && typeof parsed.namespace === "string") return parsed.namespace;
  } catch {
    // defineRoute parses the body again and reports malformed JSON itself.
  }
  return undefined;
}

export function withBodyNamespace(handler: RouteHandler): RouteHandler {
  return async (req, ctx) => {
    if (!req.body || namesNamespace(req)) return handler(req, ctx);
    let text: string;
    try {
      text = await readBodyText(req, env().MAX_BODY_BYTES);
    } catch (err) {
      return errorResponse(err, requestIdFrom(req.headers));
    }
    const url = new URL(req.url);
    const named = namespaceIn(text);
    if (named !== undefined) url.searchParams.set("namespace", named);
    const headers = new Headers(req.headers);
    // The body is re-encoded from text; the original length may no longer hold.
    headers.delete("content-length");
    return handler(new Request(url, { method: req.method, headers, body: text }), ctx);
  };
}
