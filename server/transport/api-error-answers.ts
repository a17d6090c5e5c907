// Which answers of the Next.js process the front turns into the error
// envelope: on the API families (/api/v1, /swagger, /health) a 405 (Next.js
// sends it with no body and no Allow) and a 404 that is not JSON (its HTML
// page) become `{error, code, request_id}`. The catch-all routes answer
// unknown paths themselves; this covers what a route file cannot: a known
// path with a method it does not export. See docs/decisions.md.

const FAMILIES = ["/api/v1/", "/swagger/", "/health/"];

export function isApiFamily(pathname: string): boolean {
  return pathname === "/api/v1" || pathname === "/swagger" || pathname === "/health" || FAMILIES.some((p) => pathname.startsWith(p));
}

export type ApiRewrite = "method_not_allowed" | "not_found" | null;

export function apiRewriteFor(pathname: string, status: number, contentType: string | undefined): ApiRewrite {
  if (status !== 404 && status !== 405) return null;
  if (!isApiFamily(pathname)) return null;
  if (status === 405) return "method_not_allowed";
  return /^application\/([\w.+-]+\+)?json\b/i.test(contentType ?? "") ? null : "not_found";
}

/** Next.js's own OPTIONS answer lists what the route file exports; HEAD comes with GET. */
export function allowFrom(header: string | undefined): string {
  const methods = new Set((header ?? "").split(",").map((m) => m.trim().toUpperCase()).filter(Boolean));
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort().join(", ");
}
