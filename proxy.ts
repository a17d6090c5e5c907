// 1. Path form of naming a namespace: /api/v1/namespaces/<ns>/<rest> is served
//    by /api/v1/<rest> with the namespace passed on in a request header, so every
//    namespaced route handler accepts all three forms without knowing of this one.
// 2. Page requests get the path being rendered in a request header, which server
//    layouts read (see components/lib/pathname-header.ts); any client-sent value
//    is overwritten.
import { NextResponse, type NextRequest } from "next/server";
import { PATHNAME_HEADER } from "@/components/lib/pathname-header";
import { PATH_NAMESPACE_HEADER } from "@/server/http/request-meta";

const NAMESPACE_PATH = /^\/api\/v1\/namespaces\/([^/]+)\/(.+)$/;

export function proxy(request: NextRequest) {
  const match = NAMESPACE_PATH.exec(request.nextUrl.pathname);
  if (match) {
    const url = request.nextUrl.clone();
    url.pathname = `/api/v1/${match[2]}`;
    const headers = new Headers(request.headers);
    headers.set(PATH_NAMESPACE_HEADER, decodeURIComponent(match[1]));
    return NextResponse.rewrite(url, { request: { headers } });
  }
  if (request.nextUrl.pathname.startsWith("/api/")) return NextResponse.next();
  const headers = new Headers(request.headers);
  headers.set(PATHNAME_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Pages only (plus the namespace path form): not other API routes, assets, health or metrics.
  matcher: ["/api/v1/namespaces/:ns/:rest+", "/((?!api/|_next/|health|metrics|swagger|stubs/|favicon\\.ico).*)"],
};
