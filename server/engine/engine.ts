// The mock engine: given a namespace's mocks and a request, find the mock that
// answers and form its response. Pure: the world comes in through EngineDeps.
//
//   1. The route index yields the mocks whose route and method fit, in
//      selection order (priority, specificity, conditions, age).
//   2. The first one that is alive (ttl), whose conditions all pass, and that
//      still has uses left (useLimiter, decided atomically by deps) is chosen.
//   3. Its `extract` writes go to the stores, then its response is rendered
//      (oneOf, templates, template files), so the response can read what the
//      request just stored; its webhooks are rendered with the same context.
//      A proxy mock is answered by the adapter, which forwards the request.
//   4. When nothing answers, the nearest mocks and what failed are reported.
import type { MockDefinition } from "@/server/contracts/mock";
import { compileMock, pathPatternFits, type CompiledMock } from "./compile-mock";
import { renderMockResponse, type RenderedMatch, type RenderedWebhook } from "./respond";
import { RouteIndex, type RouteCandidate } from "./route-index";
import { nearestMisses, type NearMiss } from "./near-miss";
import type { ServedProtocol } from "./protocols";
import type { EngineDeps, EngineRequest, EngineResponse, TemplateFiles } from "./types";

export type { EngineDeps } from "./types";
export { isMockError, MockError } from "./mock-error";
export type { RenderedWebhook } from "./respond";
export { webhookTriggered } from "./respond";

export type EngineResult =
  | {
      matched: true;
      mock: MockDefinition;
      pathParams: Record<string, string>;
      response: EngineResponse;
      proxy?: MockDefinition["proxy"];
      /** Every webhook of the mock, rendered; the serving core judges `trigger` on the status it answers with. */
      webhooks: RenderedWebhook[];
      webhookErrors: RenderedMatch["webhookErrors"];
    }
  | { matched: false; nearest: NearMiss[] };

export interface NamespaceMocks {
  namespace: string;
  /** The HTTP mocks. */
  index: RouteIndex<CompiledMock>;
  /** Every served protocol's mocks (http included), each in its own index. */
  indexes: Partial<Record<ServedProtocol, RouteIndex<CompiledMock>>>;
}

export interface BuildResult extends NamespaceMocks {
  /** Mocks that could not be compiled (e.g. a regex RE2 refuses); saving validates, so only old rows land here. */
  rejected: { id: string; error: string }[];
}

export function buildNamespace(namespace: string, mocks: Iterable<{ mock: MockDefinition; sequence: number; createdAt: number }>, files?: TemplateFiles): BuildResult {
  const compiled: CompiledMock[] = [];
  const rejected: BuildResult["rejected"] = [];
  const deps = files && { readFile: (name: string) => files.read(namespace, name) };
  for (const m of mocks) {
    try {
      const c = compileMock(m.mock, m.sequence, m.createdAt, deps);
      if (c) compiled.push(c);
    } catch (err) {
      rejected.push({ id: m.mock.id, error: (err as Error).message });
    }
  }
  const byProtocol = new Map<ServedProtocol, CompiledMock[]>();
  for (const c of compiled) {
    const list = byProtocol.get(c.protocol);
    if (list) list.push(c);
    else byProtocol.set(c.protocol, [c]);
  }
  const indexes: NamespaceMocks["indexes"] = {};
  for (const [protocol, list] of byProtocol) indexes[protocol] = new RouteIndex(list);
  const index = indexes.http ?? new RouteIndex<CompiledMock>([]);
  indexes.http = index;
  return { namespace, index, indexes, rejected };
}

/**
 * Answers a request with the mocks of one protocol. `req.method` is the
 * selector of that protocol's placement (the HTTP method for http).
 * Synchronous for the common mock (no useLimiter, no global/chain store
 * writes): the stub path then answers without a promise.
 */
export function handle(ns: NamespaceMocks | undefined, req: EngineRequest, deps: EngineDeps, protocol: ServedProtocol = "http"): EngineResult | Promise<EngineResult> {
  const index = ns?.indexes[protocol];
  if (!index) return { matched: false, nearest: [] };
  const now = deps.clock.now();
  const candidates = index.match(req.method, req.path, req.body);
  for (let i = 0; i < candidates.length; i++) {
    const { mock, pathParams } = candidates[i];
    if (mock.expiresAt !== null && now >= mock.expiresAt) continue;
    if (!pathPatternFits(mock, req.path) || !mock.conditions.evaluate(req).pass) continue;
    if (mock.def.useLimiter > 0) return takeAndAnswer(index, candidates, i, req, deps, now);
    return matched(mock, pathParams, renderMockResponse(mock, req, pathParams, deps));
  }
  return { matched: false, nearest: nearestMisses(index, req, candidates, now) };
}

function matched(mock: CompiledMock, pathParams: Record<string, string>, rendered: RenderedMatch | Promise<RenderedMatch>): EngineResult | Promise<EngineResult> {
  const result = (r: RenderedMatch): EngineResult => ({ matched: true, mock: mock.def, pathParams, response: r.response, proxy: mock.def.proxy, webhooks: r.webhooks, webhookErrors: r.webhookErrors });
  return rendered instanceof Promise ? rendered.then(result) : result(rendered);
}

/** From candidate `from` on, with uses taken atomically (deps.takeUse) for limited mocks. */
async function takeAndAnswer(index: RouteIndex<CompiledMock>, candidates: RouteCandidate<CompiledMock>[], from: number, req: EngineRequest, deps: EngineDeps, now: number): Promise<EngineResult> {
  for (let i = from; i < candidates.length; i++) {
    const { mock, pathParams } = candidates[i];
    if (i > from) {
      if (mock.expiresAt !== null && now >= mock.expiresAt) continue;
      if (!pathPatternFits(mock, req.path) || !mock.conditions.evaluate(req).pass) continue;
    }
    if (mock.def.useLimiter > 0 && !(await deps.takeUse(mock.id, mock.def.useLimiter))) continue;
    return matched(mock, pathParams, renderMockResponse(mock, req, pathParams, deps));
  }
  return { matched: false, nearest: nearestMisses(index, req, candidates, now) };
}
