// GraphQL on the stub path: a POST (or a GET with ?query=) at a path where
// GraphQL mocks live. Each top-level field of the operation is answered by
// its own mock through the shared engine; the answers are composed into one
// GraphQL response. A request no GraphQL mock answers goes on to the HTTP
// mocks when one of them fits the path; otherwise it is answered the GraphQL
// way (errors[]) and captured as an undefined request (docs/decisions.md, "GraphQL").
import type { EngineResult } from "@/server/engine/engine";
import type { NearMiss } from "@/server/engine/near-miss";
import { analyseGraphql, asGraphqlError, type GraphqlOperation, fieldRequestBody, fieldValueOf, graphqlSelector, readGraphqlRequest, rootTypeName, type GraphqlRequest } from "@/server/engine/protocols/graphql";
import type { EngineRequest, EngineResponse } from "@/server/engine/types";
import { answered, recordMiss, serve, type Matched } from "@/server/serving/serve";
import { httpCouldAnswer, servesPath } from "./route-presence";
import type { StubAdapter, StubContext, StubOutput } from "./stub-context";
import { forwardToProxy } from "./stub-proxy";

function graphqlOutput(status: number, body: unknown, requestId: string, headers: Record<string, string | string[]> = {}): StubOutput {
  return { status, headers: { ...headers, "Content-Type": "application/json; charset=utf-8", "X-Request-Id": requestId }, body: JSON.stringify(body), delayMs: 0 };
}

/** A request GraphQL cannot run (not JSON, no query, syntax error…): 400 with `errors`, no `data` (GraphQL over HTTP). */
function requestError(ctx: StubContext, status: number, message: string, code: string, headers?: Record<string, string>): StubOutput {
  return graphqlOutput(status, { errors: [{ message, extensions: { code, request_id: ctx.requestId } }] }, ctx.requestId, headers);
}

/** Looks up a field's own mock, then its operation's catch-all mock (graphql.field absent). */
function answerField(ctx: StubContext, req: EngineRequest, operation: Parameters<typeof graphqlSelector>[0]): EngineResult | Promise<EngineResult> {
  const orCatchAll = (own: EngineResult): EngineResult | Promise<EngineResult> => {
    if (own.matched) return own;
    const any = serve("graphql", ctx, { ...req, method: graphqlSelector(operation, undefined) });
    return any instanceof Promise ? any.then((a) => (a.matched ? a : own)) : any.matched ? any : own;
  };
  const own = serve("graphql", ctx, req);
  return own instanceof Promise ? own.then(orCatchAll) : orCatchAll(own);
}

type Operation = GraphqlOperation;
type Field = GraphqlOperation["fields"][number];

/** Each field's engine result, in order; synchronous while every mock is (most are). */
function fieldResults(ctx: StubContext, op: Operation, fields: Field[], from = 0, out: EngineResult[] = []): EngineResult[] | Promise<EngineResult[]> {
  for (let i = from; i < fields.length; i++) {
    const field = fields[i];
    const req: EngineRequest = {
      namespace: ctx.namespace,
      method: graphqlSelector(op.operation, field.name),
      path: ctx.path,
      headers: ctx.input.headers,
      query: ctx.query,
      body: fieldRequestBody(op, field),
      rawBody: ctx.text,
    };
    const result = answerField(ctx, req, op.operation);
    if (result instanceof Promise) {
      return result.then((r) => {
        out.push(r);
        return fieldResults(ctx, op, fields, i + 1, out);
      });
    }
    out.push(result);
  }
  return out;
}

function serveGraphql(ctx: StubContext): StubOutput | null | Promise<StubOutput | null> {
  if (!isGraphqlCall(ctx)) return null;
  const method = ctx.input.method.toUpperCase();

  const read = readGraphqlRequest(method, ctx.input.headers["content-type"]?.[0] ?? "", ctx.text, ctx.query);
  if (!read.ok) return httpCouldAnswer(ctx) ? null : requestError(ctx, 400, read.message, read.code);
  const analysed = analyseGraphql(read.value);
  if (!analysed.ok) return httpCouldAnswer(ctx) ? null : requestError(ctx, 400, analysed.message, analysed.code);
  const op = analysed.value;
  // GraphQL over HTTP: GET may only read.
  if (method === "GET" && op.operation !== "query") return requestError(ctx, 405, `A ${op.operation} must be sent with POST`, "METHOD_NOT_ALLOWED", { Allow: "POST" });

  const fields = op.fields.filter((f) => f.name !== "__typename");
  const results = fieldResults(ctx, op, fields);
  return results instanceof Promise ? results.then((r) => answerOperation(ctx, method, read.value, op, r)) : answerOperation(ctx, method, read.value, op, results);
}

function answerOperation(ctx: StubContext, method: string, request: GraphqlRequest, op: Operation, results: EngineResult[]): StubOutput | null | Promise<StubOutput | null> {
  const data: Record<string, unknown> = {};
  const errors: Record<string, unknown>[] = [];
  const answered: Matched[] = [];
  const misses: { field: string; key: string; nearest: NearMiss[] }[] = [];
  let next = 0;
  for (const field of op.fields) {
    if (field.name === "__typename") {
      data[field.responseKey] = rootTypeName(op.operation);
      continue;
    }
    const result = results[next++];
    if (!result.matched) {
      misses.push({ field: field.name, key: field.responseKey, nearest: result.nearest });
      data[field.responseKey] = null;
      continue;
    }
    if (result.proxy) {
      // A proxy mock forwards the whole request, so it can only answer an operation of one field.
      if (op.fields.length === 1) return proxied(ctx, result, request);
      data[field.responseKey] = null;
      errors.push({ message: `Mock '${result.mock.id}' is a proxy mock: it answers only operations that select one field`, path: [field.responseKey], extensions: { code: "MOCK_ERROR", request_id: ctx.requestId } });
      answered.push(result);
      continue;
    }
    answered.push(result);
    const { value, errors: payloadErrors } = fieldValueOf(result.response.body, field.name);
    data[field.responseKey] = value;
    for (const e of [...payloadErrors, ...(result.response.graphqlErrors ?? [])]) errors.push(asGraphqlError(e));
  }

  // Nothing here answered: an HTTP mock on this path may (GraphQL and HTTP mocks can share a path).
  if (answered.length === 0 && misses.length > 0 && httpCouldAnswer(ctx)) return null;

  for (const miss of misses) {
    recordMiss(ctx, { protocol: "graphql", method, path: `${ctx.path} ${op.operation} ${miss.field}`, body: request });
    errors.push({
      message: `No mock matches ${op.operation} field '${miss.field}' at ${ctx.path} in namespace '${ctx.namespace}'`,
      path: [miss.key],
      extensions: { code: "NO_MOCK", request_id: ctx.requestId, nearest: miss.nearest },
    });
  }
  return composed(ctx, method, request, data, errors, answered);
}

/** One response from the answered fields: the first status other than 200, merged headers, the longest delay, every webhook. */
function composed(ctx: StubContext, method: string, request: GraphqlRequest, data: Record<string, unknown>, errors: Record<string, unknown>[], answeredFields: Matched[]): StubOutput | Promise<StubOutput> {
  const responses: EngineResponse[] = answeredFields.map((a) => a.response);
  const status = responses.find((r) => r.status !== 200)?.status ?? 200;
  const headers: Record<string, string[]> = {};
  for (const r of responses) {
    for (const [name, values] of Object.entries(r.headers)) {
      // The answer is always GraphQL JSON; a mock's Content-Type would mislabel it.
      if (name.toLowerCase() === "content-type" || name in headers) continue;
      headers[name] = values.map((v) => v.replace(/[\r\n]+/g, " "));
    }
  }
  const out = graphqlOutput(status, errors.length > 0 ? { errors, data } : { data }, ctx.requestId, headers);
  out.delayMs = Math.max(0, ...responses.map((r) => r.delayMs));
  // Every field's mock is judged on the one status the composed answer carries.
  const holds = answeredFields.map((a) => answered(ctx, a, status, out, { method, body: request })).filter((h) => h instanceof Promise);
  return holds.length ? Promise.all(holds).then(() => out) : out;
}

async function proxied(ctx: StubContext, result: Matched, request: GraphqlRequest): Promise<StubOutput> {
  const method = ctx.input.method.toUpperCase();
  const out = await forwardToProxy({ proxy: result.proxy!, mock: result.mock, method, path: ctx.path, search: ctx.search, headers: ctx.input.headers, body: ctx.bytes, requestId: ctx.requestId });
  return answered(ctx, result, out.status, { ...out, delayMs: result.response.delayMs }, { method, body: request });
}

export const graphqlAdapter: StubAdapter = { protocol: "graphql", claims: isGraphqlCall, serve: serveGraphql };

/** A POST, or a GET with ?query=, at a path where a GraphQL mock lives (a bare GET there — a health check, a playground — is plain HTTP). */
function isGraphqlCall(ctx: StubContext): boolean {
  const method = ctx.input.method.toUpperCase();
  if (method !== "POST" && method !== "GET") return false;
  if (method === "GET" && ctx.query.query === undefined) return false;
  return servesPath(ctx.index.indexes.graphql, ctx.path);
}
