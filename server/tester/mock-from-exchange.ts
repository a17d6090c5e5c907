// Recorded traffic → mock definitions: one request/response exchange becomes
// an HTTP mock answering the same method and path with the same status,
// headers and body; several exchanges that share method and path get the
// conditions (query, header, JSON body) that tell them apart, so each mock
// serves what its own request received. Pure: the services feed it history
// entries or fresh executions and store what it returns.
import type { Condition } from "@/server/contracts/mock";

export interface ExchangeRequest {
  method: string;
  url: string;
  headers?: { key: string; value: string }[];
  body?: string;
  bodyEncoding?: "utf8" | "base64";
}

export interface ExchangeResponse {
  status: number;
  headers: { key: string; value: string }[];
  body: string;
  bodyEncoding?: "utf8" | "base64";
}

export interface Exchange {
  /** Names the exchange in skip reasons (the saved request's name). */
  label: string;
  request: ExchangeRequest;
  response: ExchangeResponse;
}

export interface MatchOptions {
  /** Equality conditions on every query parameter of the URL. */
  matchQuery?: boolean;
  /** Equality conditions on these request headers (names, any case). */
  matchHeaders?: string[];
  /** Equality conditions on the top-level fields of a JSON request body. */
  matchBody?: boolean;
}

/** A mock body (MockInput's input shape) without id and namespace. */
export type MockDraft = {
  http: { route: string; httpMethod: string; queryParams?: Condition[]; header?: Condition[]; conditions?: Condition[] };
  response: { statusCode: number; headers?: Record<string, string[]>; payload: unknown; decode?: "base64" };
};

/**
 * Response headers a stub sets itself or that describe the original transfer
 * (hop-by-hop, length and encoding: the stub re-encodes), plus cookies of a
 * real session that a mock must not hand out.
 */
const DROPPED_RESPONSE_HEADERS = new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "proxy-connection", "upgrade", "te", "trailer", "date", "server", "content-encoding", "x-request-id", "set-cookie"]);

/** Request headers every client sends differently; never a reason to tell two requests apart. */
const NOISY_REQUEST_HEADERS = new Set(["host", "user-agent", "accept", "accept-encoding", "accept-language", "connection", "content-length", "content-type", "cache-control", "postman-token", "cookie", "authorization", "proxy-authorization", "x-api-key", "x-request-id", "traceparent", "date"]);

export class ExchangeError extends Error {}

/** The route of a URL: its path, with `:` escaped nowhere (a literal colon segment is rare in recorded traffic). */
export function routeOf(url: string): string {
  try {
    return decodeURI(new URL(url).pathname) || "/";
  } catch {
    throw new ExchangeError(`'${url}' is not an absolute URL`);
  }
}

export function queryOf(url: string): Map<string, string> {
  const out = new Map<string, string>();
  try {
    for (const [k, v] of new URL(url).searchParams) if (!out.has(k)) out.set(k, v);
  } catch {}
  return out;
}

function headerValue(headers: { key: string; value: string }[] | undefined, name: string): string | undefined {
  return headers?.find((h) => h.key.toLowerCase() === name.toLowerCase())?.value;
}

/** The request body as a JSON object, when it is one (only objects give named fields to match). */
export function jsonBodyOf(request: ExchangeRequest): Record<string, unknown> | undefined {
  if (!request.body || request.bodyEncoding === "base64") return undefined;
  try {
    const v = JSON.parse(request.body) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The mock's response: the recorded status, headers without transfer details, the body (JSON parsed when it says JSON). */
export function mockResponseOf(response: ExchangeResponse): MockDraft["response"] {
  const headers: Record<string, string[]> = {};
  for (const { key, value } of response.headers) {
    if (DROPPED_RESPONSE_HEADERS.has(key.toLowerCase())) continue;
    (headers[key.toLowerCase()] ??= []).push(value);
  }
  const contentType = headerValue(response.headers, "content-type") ?? "";
  let payload: unknown = response.body;
  if (response.bodyEncoding !== "base64" && /json/i.test(contentType) && response.body.trim()) {
    try {
      payload = JSON.parse(response.body);
    } catch {}
  }
  return {
    statusCode: response.status,
    ...(Object.keys(headers).length ? { headers } : {}),
    payload,
    ...(response.bodyEncoding === "base64" ? { decode: "base64" as const } : {}),
  };
}

const equals = (path: string, value: unknown): Condition => ({ path, assertAction: "equals", value });

/** One exchange → a mock draft, with the conditions the options ask for. */
export function mockFromExchange(exchange: Pick<Exchange, "request" | "response">, opts: MatchOptions = {}): MockDraft {
  const { request } = exchange;
  const queryParams = opts.matchQuery ? [...queryOf(request.url)].map(([k, v]) => equals(k, v)) : [];
  const header = (opts.matchHeaders ?? []).flatMap((name) => {
    const v = headerValue(request.headers, name);
    return v === undefined ? [] : [equals(name.toLowerCase(), v)];
  });
  const body = opts.matchBody ? Object.entries(jsonBodyOf(request) ?? {}).map(([k, v]) => equals(`$.${k}`, v)) : [];
  return withConditions({ http: { route: routeOf(request.url), httpMethod: request.method.toUpperCase() }, response: mockResponseOf(exchange.response) }, queryParams, header, body);
}

function withConditions(draft: MockDraft, queryParams: Condition[], header: Condition[], body: Condition[]): MockDraft {
  // No priority: the engine already tries the mock with more conditions first, so a request matching two gets the specific one.
  return {
    ...draft,
    http: {
      ...draft.http,
      ...(queryParams.length ? { queryParams } : {}),
      ...(header.length ? { header } : {}),
      ...(body.length ? { conditions: body } : {}),
    },
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The keys whose values are not the same in every member (absent counts as a value). */
function differingKeys(maps: Map<string, unknown>[]): string[] {
  const keys = new Set(maps.flatMap((m) => [...m.keys()]));
  return [...keys].filter((k) => maps.some((m) => !sameJson(m.get(k), maps[0].get(k)) || !m.has(k)));
}

export interface PlannedMock {
  index: number;
  draft: MockDraft;
}

export interface SkippedExchange {
  index: number;
  reason: string;
}

/**
 * Drafts for many exchanges. Exchanges with the same method and route are told
 * apart by the query parameters, non-generic headers and top-level JSON body
 * fields whose values differ between them; each mock gets equality conditions
 * on the ones its own request had. An exchange that no such difference
 * separates from an earlier one (the same request recorded twice, or bodies
 * that differ only as non-JSON text) is skipped with the reason.
 */
export function planMocks(exchanges: Exchange[]): { mocks: PlannedMock[]; skipped: SkippedExchange[] } {
  const mocks: PlannedMock[] = [];
  const skipped: SkippedExchange[] = [];
  const groups = new Map<string, number[]>();
  exchanges.forEach((e, index) => {
    let key: string;
    try {
      key = `${e.request.method.toUpperCase()} ${routeOf(e.request.url)}`;
    } catch (err) {
      skipped.push({ index, reason: (err as Error).message });
      return;
    }
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  for (const members of groups.values()) {
    if (members.length === 1) {
      mocks.push({ index: members[0], draft: mockFromExchange(exchanges[members[0]]) });
      continue;
    }
    const requests = members.map((i) => exchanges[i].request);
    const queries = requests.map((r) => queryOf(r.url) as Map<string, unknown>);
    const headerMaps = requests.map((r) => new Map((r.headers ?? []).filter((h) => !NOISY_REQUEST_HEADERS.has(h.key.toLowerCase())).map((h) => [h.key.toLowerCase(), h.value as unknown])));
    const bodies = requests.map((r) => new Map(Object.entries(jsonBodyOf(r) ?? {})));
    const queryKeys = differingKeys(queries);
    const headerKeys = differingKeys(headerMaps);
    const bodyKeys = differingKeys(bodies);
    const seen = new Map<string, number>();
    members.forEach((index, m) => {
      const pick = (keys: string[], map: Map<string, unknown>, path: (k: string) => string) => keys.filter((k) => map.has(k)).map((k) => equals(path(k), map.get(k)));
      const q = pick(queryKeys, queries[m], (k) => k);
      const h = pick(headerKeys, headerMaps[m], (k) => k);
      const b = pick(bodyKeys, bodies[m], (k) => `$.${k}`);
      const signature = JSON.stringify([q, h, b]);
      const earlier = seen.get(signature);
      if (earlier !== undefined) {
        skipped.push({ index, reason: `nothing in the query, headers or JSON body tells it apart from '${exchanges[earlier].label}' (${requests[m].method.toUpperCase()} ${routeOf(requests[m].url)})` });
        return;
      }
      seen.set(signature, index);
      mocks.push({ index, draft: withConditions(mockFromExchange(exchanges[index]), q, h, b) });
    });
  }
  mocks.sort((a, b) => a.index - b.index);
  skipped.sort((a, b) => a.index - b.index);
  return { mocks, skipped };
}
