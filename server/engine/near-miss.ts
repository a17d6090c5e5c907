// When no mock answers: the three mocks nearest to the request and what kept
// each from answering (WireMock-style), for the 404 details and the preview.
import { pathPatternFits, type CompiledMock } from "./compile-mock";
import type { RouteCandidate, RouteIndex } from "./route-index";
import { splitPath } from "./route";
import type { EngineRequest } from "./types";

export interface NearMiss {
  id: string;
  method: string;
  route: string;
  /** 0 = would have matched; 1 = nothing in common. */
  distance: number;
  reasons: { kind: "route" | "method" | "condition" | "expired"; message: string; detail?: unknown }[];
}

const LIMIT = 3;
const BRIEF = 200;

// A request value can be a 50 KB body: reports show its beginning only.
function brief(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > BRIEF ? `${s.slice(0, BRIEF)}…` : s;
}
function briefValue(v: unknown): unknown {
  const s = JSON.stringify(v);
  return s !== undefined && s.length > BRIEF ? `${s.slice(0, BRIEF)}…` : v;
}
const SCAN_LIMIT = 20_000;

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function routeDistance(mock: CompiledMock, segments: string[]): number {
  const segs = mock.route.segments;
  const n = Math.max(segs.length, segments.length);
  if (n === 0) return 0;
  let same = 0;
  for (let i = 0; i < Math.min(segs.length, segments.length); i++) {
    const s = segs[i];
    if (s.kind !== "literal" || s.value === segments[i]) same++;
    else same += commonPrefix(s.value, segments[i]) / Math.max(s.value.length, segments[i].length);
  }
  return 1 - same / n;
}

export function nearestMisses(index: RouteIndex<CompiledMock>, req: EngineRequest, onRoute: RouteCandidate<CompiledMock>[], now: number): NearMiss[] {
  const out: NearMiss[] = [];
  const seen = new Set<string>();
  for (const { mock } of onRoute) {
    seen.add(mock.id);
    const base = { id: mock.id, method: mock.method ?? "ANY", route: mock.route.pattern };
    if (mock.expiresAt !== null && now >= mock.expiresAt) {
      out.push({ ...base, distance: 0.05, reasons: [{ kind: "expired", message: "the mock's ttl has elapsed" }] });
      continue;
    }
    if (!pathPatternFits(mock, req.path)) {
      out.push({ ...base, distance: 0.5, reasons: [{ kind: "route", message: `routePattern ${mock.def.http?.routePattern} does not match ${req.path}` }] });
      continue;
    }
    const result = mock.conditions.evaluate(req);
    if (result.pass) {
      out.push({ ...base, distance: 0.01, reasons: [{ kind: "condition", message: "used up: its useLimiter is exhausted" }] });
      continue;
    }
    out.push({
      ...base,
      distance: 0.1 + 0.4 * result.distance,
      reasons: result.failures.map((f) => ({ kind: "condition" as const, message: `${f.source} ${f.path} ${f.assertAction} ${brief(f.expected)}: got ${f.found ? brief(f.actual) : "nothing"}`, detail: { ...f, actual: briefValue(f.actual) } })),
    });
  }
  const segments = splitPath(req.path);
  let scanned = 0;
  for (const mock of index.all()) {
    if (seen.has(mock.id) || ++scanned > SCAN_LIMIT) continue;
    const rd = routeDistance(mock, segments);
    const methodOk = mock.method === null || mock.method === req.method;
    if (rd === 0 && !methodOk) {
      out.push({ id: mock.id, method: mock.method!, route: mock.route.pattern, distance: 0.55, reasons: [{ kind: "method", message: `method ${mock.method} expected, got ${req.method}` }] });
    } else if (rd < 1) {
      const reasons: NearMiss["reasons"] = [{ kind: "route", message: `route ${mock.route.pattern} does not fit ${req.path}` }];
      if (!methodOk) reasons.push({ kind: "method", message: `method ${mock.method} expected, got ${req.method}` });
      out.push({ id: mock.id, method: mock.method ?? "ANY", route: mock.route.pattern, distance: 0.6 + 0.4 * rd + (methodOk ? 0 : 0.05), reasons });
    }
  }
  return out.sort((a, b) => a.distance - b.distance).slice(0, LIMIT);
}
