// The answer of the catch-all routes under /api/v1, /swagger and /health: a
// path no route file serves is a 404 in the error envelope, not Next.js's HTML
// page, whatever the method (docs/decisions.md, "Errors and limits").
import { errors } from "@/server/errors";
import { errorResponse } from "./define-route";
import { requestIdFrom } from "./request-meta";

export async function unknownEndpoint(req: Request): Promise<Response> {
  const { pathname } = new URL(req.url);
  return errorResponse(errors.notFound(`Endpoint ${req.method} ${pathname}`), requestIdFrom(req.headers));
}

