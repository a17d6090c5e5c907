// "Does this protocol serve this path at all?" — asked by adapters that share
// paths with plain HTTP (GraphQL, SOAP) before they claim a request, and
// "could an HTTP mock answer it?" before they answer a miss themselves.
import type { CompiledMock } from "@/server/engine/compile-mock";
import { RouteIndex, type IndexedMock } from "@/server/engine/route-index";
import { parseStubBody } from "./stub-body";
import type { StubContext } from "./stub-context";

// Per protocol index, the same routes with every selector and condition
// dropped: one trie walk answers whether any mock lives at a path. Built once
// per index version (indexes are immutable; a change builds a new one).
const routesOnly = new WeakMap<RouteIndex<CompiledMock>, RouteIndex<IndexedMock>>();

function routesOf(index: RouteIndex<CompiledMock>): RouteIndex<IndexedMock> {
  let r = routesOnly.get(index);
  if (!r) {
    const stripped: IndexedMock[] = [];
    for (const m of index.all()) stripped.push({ id: m.id, route: m.route, method: null, priority: 0, conditionCount: 0, sequence: 0, equalityKeys: [] });
    r = new RouteIndex(stripped);
    routesOnly.set(index, r);
  }
  return r;
}

/** True when some mock of the index has a route that fits the path (whatever its selector and conditions). */
export function servesPath(index: RouteIndex<CompiledMock> | undefined, path: string): boolean {
  return index !== undefined && routesOf(index).match("*", path, undefined).length > 0;
}

/** True when an HTTP mock's route and method fit the request (its conditions are not tried). */
export function httpCouldAnswer(ctx: StubContext): boolean {
  const http = ctx.index.indexes.http;
  if (!http || http.size === 0) return false;
  // The body as serveHttp will parse it: the index may pick candidates by a body field.
  return http.match(ctx.input.method.toUpperCase(), ctx.path, parseStubBody(ctx.text, ctx.input.headers["content-type"]?.[0])).length > 0;
}
