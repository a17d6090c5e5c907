// Route patterns of HTTP-like mocks: literal segments, `:name` parameters and
// an optional trailing `*` that takes the rest of the path.

export type RouteSegment = { kind: "literal"; value: string } | { kind: "param"; name: string } | { kind: "rest" };

export interface CompiledRoute {
  pattern: string;
  segments: RouteSegment[];
  /** More literal segments = more specific; used to order equal-priority mocks. */
  literalCount: number;
}

/** "/api/users/:id/" and "api/users/:id" are the same route. */
export function normalizePath(path: string): string {
  let p = path.trim();
  if (!p.startsWith("/")) p = "/" + p;
  p = p.replace(/\/{2,}/g, "/");
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p;
}

export function splitPath(path: string): string[] {
  const p = normalizePath(path);
  return p === "/" ? [] : p.slice(1).split("/");
}

export function joinRoute(prefix: string | undefined, route: string): string {
  if (!prefix) return normalizePath(route);
  return normalizePath(`${normalizePath(prefix)}/${route}`);
}

export function compileRoute(pattern: string): CompiledRoute {
  const raw = splitPath(pattern);
  const segments: RouteSegment[] = raw.map((s, i) => {
    if (s === "*" && i === raw.length - 1) return { kind: "rest" };
    if (s.startsWith(":") && s.length > 1) return { kind: "param", name: s.slice(1) };
    return { kind: "literal", value: safeDecode(s) };
  });
  return { pattern: normalizePath(pattern), segments, literalCount: segments.filter((s) => s.kind === "literal").length };
}

/** Whether a route pattern fits a path (segments only: no method, no conditions). */
export function routeFits(route: CompiledRoute, path: string): boolean {
  const segments = splitPath(path);
  const segs = route.segments;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (s.kind === "rest") return segments.length > i;
    if (i >= segments.length) return false;
    if (s.kind === "literal" && s.value !== safeDecode(segments[i])) return false;
  }
  return segs.length === segments.length;
}

export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
