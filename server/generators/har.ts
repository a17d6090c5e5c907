// HAR → HTTP mocks: one mock per distinct request, so that replaying the
// recording against the stubs gives every recorded answer back.
//
//   1. Entries are grouped by method and path (the origin is dropped).
//   2. Within a group, requests that differ get conditions where they differ:
//      query parameters, then JSON body fields (or the whole body when it is
//      not an object). Only values some request of the group has and another
//      lacks or holds differently become conditions; a request lacking such a
//      value gets no condition on it, and answers the calls the others do not.
//      Priority is twice the number of these conditions, so when several mocks
//      fit a call, the one that fits it most precisely wins.
//   3. The same request recorded with different answers is told apart by a
//      request header whose value differs with the answer (Accept,
//      Authorization…); with none, the answers are served in turn (oneOf in
//      recorded order: a list read before and after a POST). Such a header
//      condition adds 1 to the priority.
//   4. Exact duplicates (same request, same answer) give one mock; a warning
//      counts them.
import type { Condition, MockInput } from "@/server/contracts/mock";
import { normalizePath } from "@/server/engine/route";
import { mockId, slug, uniqueIds } from "./ids";
import { GeneratorInputError } from "./input-error";
import { recordedExchanges, type Recorded, type RecordedResponse } from "./har-entries";
import type { GeneratedMock, GeneratorOptions, GeneratorResult, GeneratorWarning } from "./types";

/** Request headers never used to tell answers apart: they vary per call or per browser, not per answer (Cookie: secrets per session). */
const IGNORED_HEADERS = new Set(["host", "connection", "content-length", "content-type", "accept-encoding", "user-agent", "referer", "origin", "cookie", "date", "cache-control", "pragma", "if-none-match", "if-modified-since", "priority", "x-request-id", "traceparent", "tracestate", "dnt", "upgrade-insecure-requests"]);
const PREFERRED_HEADERS = ["accept", "authorization", "accept-language", "x-api-key"];
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "x-api-key"]);
const MAX_CONDITIONS = 100;

/** A plain key the path language reads as written ($.a.b); others are quoted ($['a.b']). */
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Leaf values of a JSON body by condition path; arrays and empty objects are leaves. False when a key cannot be written as a path. */
function leaves(value: unknown, path: string, out: Map<string, unknown>): boolean {
  if (!isObject(value) || Object.keys(value).length === 0) {
    out.set(path, value);
    return true;
  }
  for (const [key, child] of Object.entries(value)) {
    if (!PLAIN_KEY.test(key) && /['"\]]/.test(key)) return false;
    if (!leaves(child, PLAIN_KEY.test(key) ? `${path}.${key}` : `${path}['${key}']`, out)) return false;
  }
  return true;
}

/** What a request's conditions may test: "q:<name>" query parameters, "b:<path>" body values. */
function features(r: Recorded): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [name, values] of Object.entries(r.query)) out.set(`q:${name}`, values.length === 1 ? values[0] : values);
  if (r.body !== undefined) {
    const body = new Map<string, unknown>();
    if (isObject(r.body) && leaves(r.body, "$", body)) for (const [path, v] of body) out.set(`b:${path}`, v);
    else out.set("b:$", r.body);
  }
  return out;
}

interface Cluster {
  key: string;
  entries: Recorded[];
  features: Map<string, unknown>;
}

interface Variant {
  cluster: Cluster;
  responses: RecordedResponse[];
  header?: Condition;
}

/** A request header whose value follows the answer: one value per answer, a different one for each (one answer may lack it). */
function distinguishingHeader(answers: Recorded[][]): Condition[] | undefined {
  const names = new Set(answers.flat().flatMap((r) => Object.keys(r.headers)));
  const candidates = [...PREFERRED_HEADERS.filter((h) => names.has(h)), ...[...names].filter((h) => !PREFERRED_HEADERS.includes(h) && !IGNORED_HEADERS.has(h) && !h.startsWith("sec-")).sort()];
  for (const name of candidates) {
    const values = answers.map((group) => new Set(group.map((r) => (r.headers[name] ? r.headers[name].join(", ") : undefined))));
    if (values.some((v) => v.size !== 1)) continue;
    const one = values.map((v) => [...v][0]);
    if (new Set(one).size !== one.length) continue;
    const absent = one.includes(undefined);
    return one.map((value, i): Condition => {
      if (value === undefined) return { path: name, assertAction: "empty" };
      // Only presence matters here: the recorded credential need not be stored in the mock.
      if (absent && answers.length === 2 && SECRET_HEADERS.has(name)) return { path: name, assertAction: "notEmpty" };
      const list = answers[i][0].headers[name];
      return { path: name, assertAction: "equals", value: list.length === 1 ? list[0] : list };
    });
  }
  return undefined;
}

function variantsOf(cluster: Cluster, warnings: GeneratorWarning[], duplicates: { count: number }): Variant[] {
  const answers = new Map<string, Recorded[]>();
  for (const r of cluster.entries) (answers.get(r.responseKey) ?? answers.set(r.responseKey, []).get(r.responseKey)!).push(r);
  const groups = [...answers.values()];
  if (groups.length === 1) {
    duplicates.count += groups[0].length - 1;
    return [{ cluster, responses: [groups[0][0].response] }];
  }
  const headers = distinguishingHeader(groups);
  if (headers) {
    duplicates.count += cluster.entries.length - groups.length;
    return groups.map((g, i) => ({ cluster, responses: [g[0].response], header: headers[i].assertAction === "empty" ? undefined : headers[i] }));
  }
  warnings.push({ pointer: cluster.entries[0].at, message: `the same ${cluster.entries[0].method} ${cluster.entries[0].path}${cluster.entries[0].search} was answered ${groups.length} ways: the ${cluster.entries.length} recorded answers are served in turn (oneOf)` });
  return [{ cluster, responses: cluster.entries.map((r) => r.response) }];
}

const describeValue = (v: unknown) => (typeof v === "string" ? v : canonical(v));

function conditionsOf(variant: Variant, differing: string[]) {
  const queryParams: Condition[] = [];
  const conditions: Condition[] = [];
  for (const key of differing) {
    if (!variant.cluster.features.has(key)) continue;
    const value = variant.cluster.features.get(key);
    if (key.startsWith("q:")) queryParams.push({ path: key.slice(2), assertAction: "equals", value });
    else conditions.push({ path: key.slice(2), assertAction: "equals", value });
  }
  return { queryParams: queryParams.slice(0, MAX_CONDITIONS), conditions: conditions.slice(0, MAX_CONDITIONS) };
}

function mocksOfGroup(method: string, entries: Recorded[], prefix: string, options: GeneratorOptions, warnings: GeneratorWarning[], duplicates: { count: number }): GeneratedMock[] {
  const clusters = new Map<string, Cluster>();
  for (const r of entries) {
    const f = features(r);
    const key = canonical([...f].sort(([a], [b]) => (a < b ? -1 : 1)));
    (clusters.get(key) ?? clusters.set(key, { key, entries: [], features: f }).get(key)!).entries.push(r);
  }
  const all = [...clusters.values()];
  // A value is a condition when the requests of the group do not all have it alike.
  const keys = [...new Set(all.flatMap((c) => [...c.features.keys()]))];
  const differing = keys.filter((k) => new Set(all.map((c) => (c.features.has(k) ? canonical(c.features.get(k)) : "\u0000absent"))).size > 1);
  const first = entries[0];
  const route = normalizePath(first.path)
    .split("/")
    // A literal ":x" or a last "*" segment would read as route syntax: percent-encoded, they match the same path.
    .map((s, i, all) => (s.startsWith(":") ? `%3A${s.slice(1)}` : s === "*" && i === all.length - 1 ? "%2A" : s))
    .join("/");
  if (all.some((c) => differing.filter((k) => c.features.has(k)).length > MAX_CONDITIONS)) warnings.push({ pointer: first.at, message: `more than ${MAX_CONDITIONS} body values differ between the ${method} ${first.path} requests: only the first ${MAX_CONDITIONS} are conditions` });

  return all.flatMap((c) => variantsOf(c, warnings, duplicates)).map((v) => {
    const { queryParams, conditions } = conditionsOf(v, differing);
    const priority = 2 * (queryParams.length + conditions.length) + (v.header ? 1 : 0);
    const [response, ...more] = v.responses;
    const shown = [...queryParams.map((q) => `${q.path}=${describeValue(q.value)}`), ...conditions.map((b) => `${b.path}=${describeValue(b.value)}`), ...(v.header ? [`${v.header.path}${v.header.assertAction === "equals" ? `: ${describeValue(v.header.value)}` : " present"}`] : [])];
    const mock: MockInput & { id: string } = {
      id: mockId(prefix, method.toLowerCase(), first.path, shown.length ? slug(shown.join("-"), 40) : undefined),
      http: { route, httpMethod: method as never, ...(queryParams.length ? { queryParams } : {}), ...(conditions.length ? { conditions } : {}), ...(v.header ? { header: [v.header] } : {}) },
      ...(more.length ? { oneOf: { order: "order", responses: v.responses } } : { response }),
      ...(priority ? { priority } : {}),
      ...(options.pathPrefix ? { pathPrefix: options.pathPrefix } : {}),
      ...(options.serverName ? { serverName: options.serverName } : {}),
      ...(options.tags?.length ? { tags: options.tags } : {}),
      ...(options.folderId !== undefined ? { folderId: options.folderId } : {}),
    };
    const status = more.length ? `${v.responses.length} answers in turn` : String(response.statusCode);
    return { mock, summary: `${method} ${first.path} → ${status}${shown.length ? ` (${shown.join(", ")})` : ""}` };
  });
}

export async function harToMocks(document: unknown, options: GeneratorOptions = {}): Promise<GeneratorResult> {
  const warnings: GeneratorWarning[] = [];
  const recorded = recordedExchanges(document, warnings);
  if (!recorded.length) throw new GeneratorInputError("the HAR has no HTTP(S) entries with an answer to mock", { pointer: "/log/entries" });
  const prefix = options.idPrefix ?? slug(recorded[0].host || "har", 40);
  const groups = new Map<string, Recorded[]>();
  for (const r of recorded) {
    const key = `${r.method} ${normalizePath(r.path)}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(r);
  }
  const duplicates = { count: 0 };
  const mocks = [...groups.values()].flatMap((entries) => mocksOfGroup(entries[0].method, entries, prefix, options, warnings, duplicates));
  if (duplicates.count) warnings.push({ message: `${duplicates.count} entr${duplicates.count === 1 ? "y repeats" : "ies repeat"} an earlier request and answer exactly: one mock serves them` });
  uniqueIds(mocks);
  return { mocks, warnings };
}
