// The per-namespace index that finds the mocks whose route fits a request
// without looking at mocks of other routes: a trie over path segments
// (literal children first, then a parameter child, then a rest wildcard),
// with the mocks at each end sorted in selection order. Among mocks of one
// route, a scalar `equals` body condition shared by many of them becomes a
// hash lookup, so 100 variants of POST /orders cost one map read, not 100
// condition checks.
import { getPath, parsePath, type PathSegment } from "./json-path";
import { scalarKey } from "./operators";
import type { CompiledRoute } from "./route";
import { safeDecode, splitPath } from "./route";

export interface IndexedMock {
  id: string;
  route: CompiledRoute;
  /** Upper-case method, or null for any method. */
  method: string | null;
  priority: number;
  conditionCount: number;
  /** Larger is newer; the last tie-break. */
  sequence: number;
  /** Scalar `equals` conditions on the body, usable as hash keys. */
  equalityKeys: { path: string; key: string }[];
}

export interface RouteCandidate<M extends IndexedMock> {
  mock: M;
  pathParams: Record<string, string>;
}

/**
 * Selection order (docs/decisions.md): higher priority first; then the more
 * specific route (more literal segments); then more conditions; then newer.
 */
export function compareSelection(a: IndexedMock, b: IndexedMock): number {
  return b.priority - a.priority || b.route.literalCount - a.route.literalCount || b.conditionCount - a.conditionCount || b.sequence - a.sequence;
}

/** Scalars get the key the equals operator agrees with: "5", "5.0" and 5 share one. */
export function equalityKey(value: unknown): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) {
    return scalarKey(value);
  }
  return undefined;
}

const MIN_MOCKS_FOR_HASH = 4;
/** Distinct method+path walks remembered per index; the cache starts over when full. */
const MAX_CACHED_WALKS = 10_000;

interface Walk<M extends IndexedMock> {
  segments: string[];
  buckets: Bucket<M>[];
  /** The candidates, when no bucket depends on the body. */
  fixed?: RouteCandidate<M>[];
}

class Bucket<M extends IndexedMock> {
  private all: M[] = [];
  private discriminator?: { segments: PathSegment[]; byKey: Map<string, M[]>; rest: M[] };

  add(mock: M) {
    this.all.push(mock);
  }

  freeze() {
    this.all.sort(compareSelection);
    const counts = new Map<string, number>();
    for (const m of this.all) for (const k of new Set(m.equalityKeys.map((e) => e.path))) counts.set(k, (counts.get(k) ?? 0) + 1);
    let best: string | undefined;
    for (const [path, n] of counts) if (n >= MIN_MOCKS_FOR_HASH && (!best || n > counts.get(best)!)) best = path;
    if (!best) return;
    const byKey = new Map<string, M[]>();
    const rest: M[] = [];
    for (const m of this.all) {
      const keys = m.equalityKeys.filter((e) => e.path === best);
      if (keys.length !== 1) rest.push(m);
      else {
        const list = byKey.get(keys[0].key) ?? [];
        list.push(m);
        byKey.set(keys[0].key, list);
      }
    }
    this.discriminator = { segments: parsePath(best), byKey, rest };
  }

  /** Mocks that may match a request with this body, in selection order. */
  candidates(body: unknown): M[] {
    const d = this.discriminator;
    if (!d) return this.all;
    const lookup = getPath(body, d.segments);
    const key = lookup.found ? equalityKey(lookup.value) : undefined;
    const hits = key === undefined ? undefined : d.byKey.get(key);
    if (!hits) return d.rest;
    if (d.rest.length === 0) return hits;
    return mergeSorted(hits, d.rest);
  }

  get size() {
    return this.all.length;
  }

  get hashesBody(): boolean {
    return this.discriminator !== undefined;
  }

  get mocks(): readonly M[] {
    return this.all;
  }
}

function mergeSorted<M extends IndexedMock>(a: M[], b: M[]): M[] {
  const out: M[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(compareSelection(a[i], b[j]) <= 0 ? a[i++] : b[j++]);
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

class TrieNode<M extends IndexedMock> {
  literal = new Map<string, TrieNode<M>>();
  param?: { node: TrieNode<M> };
  /** Mocks whose route ends here, by method ("*" = any method). */
  ends = new Map<string, Bucket<M>>();
  /** Mocks whose route ends with `*` here. */
  restEnds = new Map<string, Bucket<M>>();
}

export class RouteIndex<M extends IndexedMock> {
  private root = new TrieNode<M>();
  private frozen = false;
  readonly size: number;

  constructor(mocks: Iterable<M>) {
    let n = 0;
    for (const m of mocks) {
      this.insert(m);
      n++;
    }
    this.size = n;
    this.freeze(this.root);
    this.frozen = true;
  }

  private insert(mock: M) {
    let node = this.root;
    const segs = mock.route.segments;
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i];
      if (s.kind === "rest") {
        bucketOf(node.restEnds, mock.method).add(mock);
        return;
      }
      if (s.kind === "literal") {
        let next = node.literal.get(s.value);
        if (!next) node.literal.set(s.value, (next = new TrieNode()));
        node = next;
      } else {
        node.param ??= { node: new TrieNode() };
        node = node.param.node;
      }
    }
    bucketOf(node.ends, mock.method).add(mock);
  }

  private freeze(node: TrieNode<M>) {
    for (const b of node.ends.values()) b.freeze();
    for (const b of node.restEnds.values()) b.freeze();
    for (const child of node.literal.values()) this.freeze(child);
    if (node.param) this.freeze(node.param.node);
  }

  /**
   * Every mock whose route and method fit, in selection order, with its path
   * parameters. The walk's result is cached per method and path (the index
   * never changes once built); only buckets that hash on a body value look at
   * the body per request. Callers must not mutate what is returned.
   */
  match(method: string, path: string, body: unknown): RouteCandidate<M>[] {
    const key = method + " " + path;
    let walked = this.walks.get(key);
    if (!walked) {
      walked = this.walk(method, path);
      if (this.walks.size >= MAX_CACHED_WALKS) this.walks.clear();
      this.walks.set(key, walked);
    }
    if (walked.fixed) return walked.fixed;
    const lists = walked.buckets.map((b) => b.candidates(body));
    const ordered = lists.length === 1 ? lists[0] : lists.reduce((acc, l) => mergeSorted(acc, l));
    return ordered.map((mock) => ({ mock, pathParams: extractParams(mock.route, walked.segments) }));
  }

  private walks = new Map<string, Walk<M>>();

  private walk(method: string, path: string): Walk<M> {
    if (!this.frozen) throw new Error("index not frozen");
    const segments = splitPath(path).map(safeDecode);
    const buckets: Bucket<M>[] = [];
    const walk = (node: TrieNode<M>, i: number) => {
      if (i < segments.length) {
        for (const m of [method, "*"]) {
          const rest = node.restEnds.get(m);
          if (rest) buckets.push(rest);
        }
      } else {
        for (const m of [method, "*"]) {
          const end = node.ends.get(m);
          if (end) buckets.push(end);
        }
        return;
      }
      const lit = node.literal.get(segments[i]);
      if (lit) walk(lit, i + 1);
      if (node.param) walk(node.param.node, i + 1);
    };
    walk(this.root, 0);
    if (buckets.length === 0) return { segments, buckets, fixed: [] };
    if (buckets.some((b) => b.hashesBody)) return { segments, buckets };
    const lists = buckets.map((b) => b.candidates(undefined));
    const ordered = lists.length === 1 ? lists[0] : lists.reduce((acc, l) => mergeSorted(acc, l));
    return { segments, buckets, fixed: ordered.map((mock) => ({ mock, pathParams: extractParams(mock.route, segments) })) };
  }

  /** All mocks, for reporting near misses. */
  *all(): Generator<M> {
    const visit = function* (node: TrieNode<M>): Generator<M> {
      for (const b of node.ends.values()) yield* b.mocks;
      for (const b of node.restEnds.values()) yield* b.mocks;
      for (const child of node.literal.values()) yield* visit(child);
      if (node.param) yield* visit(node.param.node);
    };
    yield* visit(this.root);
  }
}

function bucketOf<M extends IndexedMock>(map: Map<string, Bucket<M>>, method: string | null): Bucket<M> {
  const key = method ?? "*";
  let b = map.get(key);
  if (!b) map.set(key, (b = new Bucket()));
  return b;
}

function extractParams(route: CompiledRoute, segments: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  route.segments.forEach((s, i) => {
    if (s.kind === "param") params[s.name] = segments[i];
    else if (s.kind === "rest") params["*"] = segments.slice(i).join("/");
  });
  return params;
}
