/**
 * The page to return to after logging in, from the `next` query parameter.
 * Only same-site paths are accepted, so a crafted link cannot send a freshly
 * logged-in user to another site.
 */
export function safeNext(next: string | null | undefined, fallback = "/"): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  if (next.startsWith("/login") || next.startsWith("/api/")) return fallback;
  return next;
}
