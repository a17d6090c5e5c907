// node:http's header object as the engine reads headers: every value a list.
import type { IncomingHttpHeaders } from "node:http";

export function headerLists(headers: IncomingHttpHeaders): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined) out[k] = typeof v === "string" ? [v] : v;
  }
  return out;
}
