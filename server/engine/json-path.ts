// The path language of conditions and templates: `$.order.items[0].id`,
// also accepted without the leading `$.`; `['odd.key']` for keys with dots.

export type PathSegment = string | number;

const cache = new Map<string, PathSegment[]>();

export function parsePath(path: string): PathSegment[] {
  const cached = cache.get(path);
  if (cached) return cached;
  let p = path.trim();
  if (p === "$") p = "";
  else if (p.startsWith("$.")) p = p.slice(2);
  else if (p.startsWith("$[")) p = p.slice(1);
  const segments: PathSegment[] = [];
  let i = 0;
  let current = "";
  const flush = () => {
    if (current !== "") segments.push(current);
    current = "";
  };
  while (i < p.length) {
    const ch = p[i];
    if (ch === ".") {
      flush();
      i++;
    } else if (ch === "[") {
      flush();
      const close = p.indexOf("]", i);
      if (close < 0) {
        current += p.slice(i);
        break;
      }
      const inner = p.slice(i + 1, close).trim();
      const quoted = /^(['"])(.*)\1$/.exec(inner);
      if (quoted) segments.push(quoted[2]);
      else if (/^-?\d+$/.test(inner)) segments.push(Number(inner));
      else segments.push(inner);
      i = close + 1;
    } else {
      current += ch;
      i++;
    }
  }
  flush();
  if (cache.size > 10_000) cache.clear();
  cache.set(path, segments);
  return segments;
}

export interface Lookup {
  found: boolean;
  value: unknown;
}

const MISSING: Lookup = { found: false, value: undefined };

export function getPath(root: unknown, path: string | PathSegment[]): Lookup {
  const segments = typeof path === "string" ? parsePath(path) : path;
  let value: unknown = root;
  for (const seg of segments) {
    if (value === null || value === undefined) return MISSING;
    if (typeof seg === "number") {
      if (!Array.isArray(value)) return MISSING;
      const index = seg < 0 ? value.length + seg : seg;
      if (index < 0 || index >= value.length) return MISSING;
      value = value[index];
    } else if (typeof value === "object") {
      if (!Object.prototype.hasOwnProperty.call(value, seg)) {
        // A numeric key on an array ("items.0") reads like items[0].
        if (Array.isArray(value) && /^\d+$/.test(seg)) {
          const index = Number(seg);
          if (index >= value.length) return MISSING;
          value = value[index];
          continue;
        }
        return MISSING;
      }
      value = (value as Record<string, unknown>)[seg];
    } else {
      return MISSING;
    }
  }
  return { found: true, value };
}
