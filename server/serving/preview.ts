// Mock preview: which mock would answer a request, and what it would send,
// computed by the engine over the namespace's compiled index exactly as the
// stub path does, but without side effects:
//   - useLimiter: a use is "available" when the stored useCounter is below the
//     limit; nothing is incremented;
//   - stores: read from the namespace's cache; `extract` writes land in a
//     throw-away overlay, so the previewed response still sees them;
//   - oneOf in order: the preview shows the response the next call would get
//     without advancing the mock's round-robin position;
//   - no request log, no live event, no undefined-request capture.
import type { z } from "zod";
import type { PreviewInput, PreviewQuery, PreviewResult } from "@/server/contracts/organisation-endpoints";
import { db } from "@/server/db/client";
import type { CompiledMock } from "@/server/engine/compile-mock";
import { handle, type EngineDeps, type NamespaceMocks } from "@/server/engine/engine";
import { isMockError } from "@/server/engine/mock-error";
import type { RouteIndex } from "@/server/engine/route-index";
import type { EngineRequest, StoreAccess } from "@/server/engine/types";
import { namespaceMocks } from "./mock-index";
import { summaryOf } from "@/server/services/mocks";
import type { NamespaceScope } from "@/server/services/namespace-access";
import { GLOBAL, namespaceStores } from "@/server/services/stores";

type Result = z.output<typeof PreviewResult>;
type Values = Record<string, string | string[]>;

interface PreviewRequest {
  method: string;
  path: string;
  headers?: Values;
  query?: string | Values;
  body?: unknown;
  rawBody?: string;
}

/** GET form: headers arrive parsed from JSON, the body as text (JSON when it parses). */
export function previewFromQuery(scope: NamespaceScope, q: z.output<typeof PreviewQuery>): Promise<Result> {
  let body: unknown = q.body;
  if (q.body !== undefined) {
    try {
      body = JSON.parse(q.body);
    } catch {
      body = q.body;
    }
  }
  return previewMock(scope, { method: q.method, path: q.path, headers: q.headers, query: q.query, body, rawBody: q.body });
}

/** POST form (extension): the body is already a JSON value; a string is a text body. */
export function previewFromBody(scope: NamespaceScope, input: z.output<typeof PreviewInput>): Promise<Result> {
  const rawBody = input.body === undefined ? undefined : typeof input.body === "string" ? input.body : JSON.stringify(input.body);
  return previewMock(scope, { ...input, rawBody });
}

const lists = (v: string | string[]) => (Array.isArray(v) ? v : [v]);

function engineRequest(namespace: string, input: PreviewRequest): EngineRequest {
  // A query part written into the path counts too: "/orders?status=open".
  const cut = input.path.indexOf("?");
  const path = cut === -1 ? input.path : input.path.slice(0, cut);
  const query: Record<string, string[]> = {};
  const addQuery = (params: URLSearchParams) => {
    for (const [k, v] of params) (query[k] ??= []).push(v);
  };
  if (cut !== -1) addQuery(new URLSearchParams(input.path.slice(cut + 1)));
  if (typeof input.query === "string") addQuery(new URLSearchParams(input.query));
  else for (const [k, v] of Object.entries(input.query ?? {})) (query[k] ??= []).push(...lists(v));
  const headers: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(input.headers ?? {})) (headers[k.toLowerCase()] ??= []).push(...lists(v));
  return {
    namespace,
    method: input.method.toUpperCase(),
    path: path.startsWith("/") ? path : `/${path}`,
    headers,
    query,
    body: input.body,
    rawBody: input.rawBody,
  };
}

/** Store reads from the cache; writes stay in this preview. */
function overlayStores(cache: Map<string, Map<string, unknown>>): StoreAccess {
  const written = new Map<string, unknown>();
  const key = (chainId: string, k: string) => `${chainId}\u0000${k}`;
  const read = (chainId: string, k: string) => (written.has(key(chainId, k)) ? written.get(key(chainId, k)) : cache.get(chainId)?.get(k));
  return {
    getGlobal: (_ns, k) => read(GLOBAL, k),
    getChain: (_ns, chainId, k) => read(chainId, k),
    setGlobal: (_ns, k, value) => void written.set(key(GLOBAL, k), value ?? null),
    setChain: (_ns, chainId, k, value) => void written.set(key(chainId, k), value ?? null),
  };
}

/**
 * The index as the engine sees it, but each candidate is a copy with its own
 * round-robin position, so rendering a oneOf response here does not advance
 * the shared compiled mock that serves real traffic.
 */
function withPrivateTurns(ns: NamespaceMocks): NamespaceMocks {
  const index = Object.create(ns.index) as RouteIndex<CompiledMock>;
  index.match = (method, path, body) => ns.index.match(method, path, body).map((c) => ({ ...c, mock: { ...c.mock, turn: { next: c.mock.turn.next } } }));
  return { namespace: ns.namespace, index, indexes: { ...ns.indexes, http: index } };
}

export async function previewMock(scope: NamespaceScope, input: PreviewRequest): Promise<Result> {
  const index = await namespaceMocks(scope.name);
  if (!index) return { matched: false, nearest: [] };
  const req = engineRequest(scope.name, input);
  const deps: EngineDeps = {
    clock: { now: () => Date.now() },
    random: { next: () => Math.random() },
    stores: overlayStores(await namespaceStores(index.namespaceId)),
    files: index.files,
    async takeUse(mockId, limit) {
      const row = await db().mock.findUnique({ where: { namespaceId_id: { namespaceId: index.namespaceId, id: mockId } }, select: { useCounter: true, deletedAt: true } });
      return Boolean(row && !row.deletedAt && row.useCounter < limit);
    },
  };
  const ns = withPrivateTurns(index);
  try {
    const result = await handle(ns, req, deps);
    if (!result.matched) return { matched: false, nearest: result.nearest };
    const { status, headers, body } = result.response;
    return { matched: true, mock: { id: result.mock.id, summary: summaryOf(result.mock) }, pathParams: result.pathParams, response: { status, headers, body }, nearest: [] };
  } catch (err) {
    if (!isMockError(err)) throw err;
    // The mock matched but its response cannot be formed; the engine does not
    // say which mock it was, so find it the way engine.handle's loop does.
    const chosen = await chosenCandidate(ns, req, deps);
    return { matched: true, ...(chosen ? { mock: { id: chosen.mock.id, summary: summaryOf(chosen.mock.def) }, pathParams: chosen.pathParams } : {}), responseError: err.message, nearest: [] };
  }
}

async function chosenCandidate(ns: NamespaceMocks, req: EngineRequest, deps: EngineDeps) {
  const now = deps.clock.now();
  for (const c of ns.index.match(req.method, req.path, req.body)) {
    if (c.mock.expiresAt !== null && now >= c.mock.expiresAt) continue;
    if (!c.mock.conditions.evaluate(req).pass) continue;
    if (c.mock.def.useLimiter > 0 && !(await deps.takeUse(c.mock.id, c.mock.def.useLimiter))) continue;
    return c;
  }
  return undefined;
}
