// Mocks from API tester traffic (POST /api-tester/mock-from-response and
// /api-tester/mocks-from-collection): recorded or fresh exchanges go through
// the pure planner (server/tester/mock-from-exchange.ts) and are stored with
// the mock services: one mock with the duplicate check of POST /mocks, or a
// collection's mocks in one transaction (ids derived from the request ids, so
// generating again updates them rather than piling up copies).
import type { Actor } from "@/server/auth/actor";
import { MockInput } from "@/server/contracts/mock";
import type { MockFromResponseInput, MocksFromCollectionInput, MocksFromCollectionResult } from "@/server/contracts/tester-mock-endpoints";
import { db } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import { flatten } from "@/server/tester/collection-runner";
import { executeItem } from "@/server/tester/execute-item";
import { ExchangeError, mockFromExchange, planMocks, type Exchange, type ExchangeRequest, type ExchangeResponse, type MockDraft } from "@/server/tester/mock-from-exchange";
import { openRunDeps } from "@/server/tester/run-deps";
import { emptyScopes } from "@/server/tester/scopes";
import { batchSaveMocks } from "../mock-batch";
import { getMock, saveMock } from "../mocks";
import { requireNamespacePermission, resolveNamespace, type NamespaceScope } from "../namespace-access";
import { assertCollectionUsable } from "./collection-access";
import { loadCollectionForRun, type CollectionForRun } from "./collection-tree";
import { collectionVariables, resolveEnvironment } from "./execution-context";

/**
 * Generating mocks needs the collection in the caller's Space (spec, Cross-Space
 * rules): an id the caller cannot reach is 404; a collection shared from
 * another Space is 403, decided before anything of it is read (the sharing
 * resolver, collection-access.ts).
 */
export async function assertCollectionForMockGeneration(actor: Actor, scope: NamespaceScope, collectionId: string): Promise<void> {
  await assertCollectionUsable(actor, scope, collectionId, "generate-mocks");
}

async function targetScope(actor: Actor, scope: NamespaceScope, targetNamespace: string | undefined): Promise<NamespaceScope> {
  if (!targetNamespace || targetNamespace === scope.name) return scope;
  const target = await resolveNamespace(actor, targetNamespace);
  requireNamespacePermission(target, "write");
  return target;
}

function parseDraft(draft: MockDraft, extra: { id?: string; tags?: string[]; folderId?: string | null }, field: string) {
  const parsed = MockInput.safeParse({ ...draft, ...(extra.id ? { id: extra.id } : {}), ...(extra.tags ? { tags: extra.tags } : {}), ...(extra.folderId ? { folderId: extra.folderId } : {}) });
  if (parsed.success) return { ok: true as const, def: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false as const, message: `the mock would be invalid at ${[field, ...issue.path].join(".")}: ${issue.message}` };
}

async function exchangeOfHistory(actor: Actor, scope: NamespaceScope, historyId: string): Promise<{ request: ExchangeRequest; response: ExchangeResponse & { bodyTruncated?: boolean } }> {
  const row = await db().testerHistory.findFirst({ where: { id: historyId, namespaceId: scope.id, userId: actor.user.id } });
  if (!row) throw new AppError("not_found", `History entry '${historyId}' not found in namespace '${scope.name}'`);
  if (!row.response) throw errors.validation("That history entry has no response (nothing was received)", [{ location: "body", field: "historyId", message: "no response recorded" }]);
  return { request: row.sent as unknown as ExchangeRequest, response: row.response as unknown as ExchangeResponse & { bodyTruncated?: boolean } };
}

export async function mockFromResponse(actor: Actor, scope: NamespaceScope, input: MockFromResponseInput) {
  const exchange = input.historyId ? await exchangeOfHistory(actor, scope, input.historyId) : { request: input.request!, response: input.response! };
  const where = input.historyId ? "historyId" : "response";
  if (exchange.response.bodyTruncated) {
    throw errors.validation("The response body was cut when it was recorded; a mock would serve part of it", [{ location: "body", field: where === "historyId" ? "historyId" : "response.bodyTruncated", message: "body truncated" }]);
  }
  let draft: MockDraft;
  try {
    draft = mockFromExchange(exchange, { matchQuery: input.matchQuery, matchHeaders: input.matchHeaders, matchBody: input.matchBody });
  } catch (err) {
    if (err instanceof ExchangeError) throw errors.validation(err.message, [{ location: "body", field: input.historyId ? "historyId" : "request.url", message: err.message }]);
    throw err;
  }
  const parsed = parseDraft(draft, input, "mock");
  if (!parsed.ok) throw errors.validation(parsed.message, [{ location: "body", field: "request", message: parsed.message }]);
  const target = await targetScope(actor, scope, input.targetNamespace);
  const saved = await saveMock(actor, target, parsed.def, input.intent);
  return { overwritten: saved.overwritten, mock: await getMock(target, saved.mock.id) };
}

interface Source {
  requestId: string;
  name: string;
  exchange?: Exchange;
  reason?: string;
}

/** The caller's newest response of each request, as the workspace recorded it. */
async function fromHistory(actor: Actor, scope: NamespaceScope, requests: CollectionForRun["requests"]): Promise<Source[]> {
  return Promise.all(
    requests.map(async (r): Promise<Source> => {
      const row = await db().testerHistory.findFirst({ where: { namespaceId: scope.id, userId: actor.user.id, requestId: r.id, status: { not: null } }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
      if (!row?.response) return { requestId: r.id, name: r.name, reason: "no recorded response: send it in the workspace first, or generate with execute: true" };
      const response = row.response as unknown as ExchangeResponse & { bodyTruncated?: boolean };
      if (response.bodyTruncated) return { requestId: r.id, name: r.name, reason: "the recorded response body was cut (history keeps 64 KiB); generate with execute: true" };
      return { requestId: r.id, name: r.name, exchange: { label: r.name, request: row.sent as unknown as ExchangeRequest, response } };
    }),
  );
}

/** Sends every request now, in run order, with its scripts and the run's shared variables (a login's token reaches later requests). */
async function fromExecution(actor: Actor, scope: NamespaceScope, collection: CollectionForRun, requestIds: string[] | undefined, input: MocksFromCollectionInput): Promise<Source[]> {
  const environment = await resolveEnvironment(actor, scope, input);
  const scopes = emptyScopes();
  scopes.environment = { ...environment.values };
  scopes.collection = collectionVariables(collection);
  const items = flatten({ id: collection.id, name: collection.name, auth: collection.auth, scripts: collection.scripts, variables: scopes.collection, folders: collection.folders, requests: collection.requests, requestIds });
  const { deps, close } = openRunDeps({});
  const out: Source[] = [];
  try {
    for (const item of items) {
      const r = await executeItem(item.scope, item.request, scopes, deps, { iteration: 0, iterationCount: 1 });
      const base = { requestId: item.request.id!, name: item.request.name };
      if (!r.response || !r.sent) out.push({ ...base, reason: r.skipRequest ? "a pre-request script skipped it" : `nothing was received: ${r.error ?? "unknown error"}` });
      else if (r.response.bodyTruncated) out.push({ ...base, reason: "the response body was larger than the tester keeps" });
      else out.push({ ...base, exchange: { label: item.request.name, request: r.sent, response: r.response } });
    }
  } finally {
    await close();
  }
  return out;
}

export async function mocksFromCollection(actor: Actor, scope: NamespaceScope, input: MocksFromCollectionInput): Promise<MocksFromCollectionResult> {
  await assertCollectionForMockGeneration(actor, scope, input.collectionId);
  const target = await targetScope(actor, scope, input.targetNamespace);
  const collection = await loadCollectionForRun(scope, input.collectionId);
  if (input.requestIds) {
    const known = new Set(collection.requests.map((r) => r.id));
    const unknown = input.requestIds.find((id) => !known.has(id));
    if (unknown) throw errors.validation(`Request '${unknown}' is not in collection '${collection.name}'`, [{ location: "body", field: "requestIds", message: `${unknown} is not in ${collection.id}` }]);
  }
  const requests = input.requestIds ? collection.requests.filter((r) => input.requestIds!.includes(r.id)) : collection.requests;
  const sources = input.execute ? await fromExecution(actor, scope, collection, input.requestIds, input) : await fromHistory(actor, scope, requests);

  const skipped: MocksFromCollectionResult["skipped"] = sources.filter((s) => !s.exchange).map((s) => ({ requestId: s.requestId, name: s.name, reason: s.reason! }));
  const usable = sources.filter((s) => s.exchange);
  const plan = planMocks(usable.map((s) => s.exchange!));
  for (const s of plan.skipped) skipped.push({ requestId: usable[s.index].requestId, name: usable[s.index].name, reason: s.reason });
  const defs: { source: Source; draft: MockDraft; def: ReturnType<typeof MockInput.parse> }[] = [];
  for (const m of plan.mocks) {
    const source = usable[m.index];
    const parsed = parseDraft(m.draft, { id: `tester-${source.requestId}`, tags: input.tags, folderId: input.folderId }, source.name);
    if (parsed.ok) defs.push({ source, draft: m.draft, def: parsed.def });
    else skipped.push({ requestId: source.requestId, name: source.name, reason: parsed.message });
  }
  // One transaction for all of them (batchSaveMocks): they exist together or not at all.
  await batchSaveMocks(actor, target, defs.map((d) => d.def), "overwrite");
  const order = new Map(collection.requests.map((r, i) => [r.id, i]));
  skipped.sort((a, b) => (order.get(a.requestId) ?? 0) - (order.get(b.requestId) ?? 0));
  return {
    namespace: target.name,
    created: defs.map(({ source, draft }) => ({
      mockId: `tester-${source.requestId}`,
      requestId: source.requestId,
      name: source.name,
      method: draft.http.httpMethod,
      route: draft.http.route,
      conditions: (draft.http.queryParams?.length ?? 0) + (draft.http.header?.length ?? 0) + (draft.http.conditions?.length ?? 0),
    })),
    skipped,
  };
}
