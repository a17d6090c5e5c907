// Path form of naming a namespace: /api/v1/namespaces/<ns>/<rest> is served
// by /api/v1/<rest> with the namespace passed on in a request header, so every
// namespaced route handler accepts all three forms without knowing of this one.
import { NextResponse, type NextRequest } from "next/server";
import { PATH_NAMESPACE_HEADER } from "@/server/http/request-meta";

export function proxy(request: NextRequest) {
  const match = /^\/api\/v1\/namespaces\/([^/]+)\/(.+)$/.exec(request.nextUrl.pathname);
  if (!match) return NextResponse.next();
  const url = request.nextUrl.clone();
  url.pathname = `/api/v1/${match[2]}`;
  const headers = new Headers(request.headers);
  headers.set(PATH_NAMESPACE_HEADER, decodeURIComponent(match[1]));
  return NextResponse.rewrite(url, { request: { headers } });
}

export const config = { matcher: "/api/v1/namespaces/:ns/:rest+" };
