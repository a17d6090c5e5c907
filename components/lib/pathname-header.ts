/**
 * Request header the proxy (proxy.ts) sets on page requests with the path and
 * query being rendered. Server layouts cannot see the URL otherwise; the app
 * layout needs it to send an anonymous visitor to /login?next=<path>.
 */
export const PATHNAME_HEADER = "x-polymock-pathname";
