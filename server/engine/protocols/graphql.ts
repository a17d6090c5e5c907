// GraphQL mocks: one mock answers one top-level field of one operation type
// at a GraphQL path. A request's document is parsed with `graphql`; each
// top-level field it selects is looked up on its own (selector
// "<operation> <field>") and the answers are composed into one `data` object
// (docs/decisions.md, "GraphQL").
import { Kind, valueFromASTUntyped, type ArgumentNode, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode, type ValueNode } from "graphql";
import { joinRoute } from "../route";
import { parsedDocument, type FieldPlan, type OperationPlan } from "./graphql-documents";
import type { Placer } from "./placement";

export const GRAPHQL_DEFAULT_PATH = "/graphql";
/** Tokens in one document: bounds parsing time and the parser's recursion. */
export const GRAPHQL_MAX_TOKENS = 20_000;
/** Top-level fields (after fragments) answered in one request. */
export const GRAPHQL_MAX_FIELDS = 100;
const MAX_FRAGMENT_DEPTH = 20;
/** Nesting of { [ ( in a document; deeper ones are refused before the (recursive) parser sees them. */
export const GRAPHQL_MAX_NESTING = 128;

export type OperationType = "query" | "mutation" | "subscription";

/** The selector of a field's mocks; "<operation> *" is the mock of every field of the operation. */
export function graphqlSelector(operation: OperationType, field: string | undefined): string {
  return `${operation} ${field ?? "*"}`;
}

export const placeGraphql: Placer = (def) => {
  const g = def.graphql;
  if (!g) return null;
  return {
    route: joinRoute(def.pathPrefix, g.path ?? GRAPHQL_DEFAULT_PATH),
    selector: graphqlSelector(g.operation ?? "query", g.field || undefined),
    conditions: { conditions: g.conditions, header: g.header, sortArray: g.sortArray },
  };
};

/** The request as the client sent it (GraphQL over HTTP). */
export interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | undefined;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string; code: string };

const bad = (message: string, code = "BAD_REQUEST"): { ok: false; message: string; code: string } => ({ ok: false, message, code });
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function requestFrom(raw: Record<string, unknown>): Parsed<GraphqlRequest> {
  const { query, variables, operationName } = raw;
  if (typeof query !== "string" || query.trim() === "") return bad("The request has no 'query' string");
  if (variables !== undefined && variables !== null && !isObject(variables)) return bad("'variables' must be an object");
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") return bad("'operationName' must be a string");
  return { ok: true, value: { query, variables: (variables as Record<string, unknown> | null) ?? {}, operationName: (operationName as string | null) ?? undefined } };
}

/**
 * The GraphQL request in an HTTP request: a POST with a JSON body
 * ({query, variables, operationName}) or an `application/graphql` body (the
 * document itself), or a GET with `query` (and JSON `variables`) in the URL.
 */
export function readGraphqlRequest(method: string, contentType: string, text: string, query: Record<string, string[]>): Parsed<GraphqlRequest> {
  if (method === "GET") {
    const variables = query.variables?.[0];
    let parsedVars: unknown;
    if (variables !== undefined && variables !== "") {
      try {
        parsedVars = JSON.parse(variables);
      } catch {
        return bad("'variables' in the URL is not JSON");
      }
    }
    return requestFrom({ query: query.query?.[0], variables: parsedVars, operationName: query.operationName?.[0] });
  }
  if (contentType.toLowerCase().startsWith("application/graphql") && !contentType.toLowerCase().includes("json")) {
    return requestFrom({ query: text });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return bad("The body is not JSON: send {\"query\": \"…\", \"variables\": {…}}");
  }
  if (Array.isArray(body)) return bad("Batched GraphQL requests (a JSON array) are not supported; send one operation per request");
  if (!isObject(body)) return bad("The body must be a JSON object with a 'query' string");
  return requestFrom(body);
}

/** One top-level field of the operation: answered under `responseKey` (its alias, else its name). */
export interface TopField {
  responseKey: string;
  name: string;
  /** The field's arguments with variables substituted (absent variables left out). */
  args: Record<string, unknown>;
}

export interface GraphqlOperation {
  operation: OperationType;
  /** Variables of the request, with the operation's defaults for absent ones. */
  variables: Record<string, unknown>;
  fields: TopField[];
}

/** Parses the document (or takes it from the cache) and finds the operation to run and its top-level fields (fragments and @skip/@include followed). */
export function analyseGraphql(req: GraphqlRequest): Parsed<GraphqlOperation> {
  const parsed = parsedDocument(req.query, { maxTokens: GRAPHQL_MAX_TOKENS, maxNesting: GRAPHQL_MAX_NESTING, nestingOf: nestingDepth });
  if (!parsed.ok) return parsed;
  const doc = parsed.value;
  if (doc.invalid) return bad(doc.invalid, "GRAPHQL_VALIDATION_FAILED");
  const { operations } = doc;
  let op: OperationDefinitionNode | undefined;
  if (req.operationName !== undefined) {
    op = operations.find((o) => o.name?.value === req.operationName);
    if (!op) return bad(`Unknown operation named "${req.operationName}"`, "GRAPHQL_VALIDATION_FAILED");
  } else if (operations.length === 1) {
    op = operations[0];
  } else {
    return bad(operations.length === 0 ? "The document has no operation" : "Must provide operation name if query contains multiple operations", "GRAPHQL_VALIDATION_FAILED");
  }
  let plan = doc.plans.get(op);
  if (!plan) doc.plans.set(op, (plan = planOperation(op, doc.fragments)));

  const variables: Record<string, unknown> = { ...req.variables };
  for (const [name, value] of plan.defaults) if (variables[name] === undefined) variables[name] = value;

  let fields: TopField[];
  if (plan.fields === undefined) {
    // An @skip/@include reads a variable: which fields run depends on this request.
    const collected = collectFields(op, doc.fragments, variables, undefined);
    if ("problem" in collected) return bad(collected.problem, "GRAPHQL_VALIDATION_FAILED");
    fields = collected.fields.map((f) => ({ responseKey: f.responseKey, name: f.name, args: argumentsOf(f.node, variables) }));
  } else if ("problem" in plan.fields) {
    return bad(plan.fields.problem, "GRAPHQL_VALIDATION_FAILED");
  } else {
    fields = plan.fields.map((f) => ({ responseKey: f.responseKey, name: f.name, args: fieldArguments(f, variables) }));
  }
  return { ok: true, value: { operation: op.operation as OperationType, variables, fields } };
}

/** What of an operation does not depend on the request: worked out at its first request, kept with the cached document. */
function planOperation(op: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>): OperationPlan {
  const defaults: [string, unknown][] = [];
  for (const v of op.variableDefinitions ?? []) if (v.defaultValue) defaults.push([v.variable.name.value, deepFreeze(valueFromASTUntyped(v.defaultValue))]);
  const reads = { variables: false };
  const collected = collectFields(op, fragments, {}, reads);
  if (reads.variables) return { defaults, fields: undefined };
  if ("problem" in collected) return { defaults, fields: collected };
  const fields = collected.fields.map((f): FieldPlan => {
    const args = f.node.arguments ?? [];
    // Arguments with a variable anywhere are all evaluated per request, so the written order stays.
    if (args.some((a) => usesVariable(a.value))) return { responseKey: f.responseKey, name: f.name, constantArgs: undefined, variableArgs: args };
    return { responseKey: f.responseKey, name: f.name, constantArgs: deepFreeze(argumentValues(args, {})), variableArgs: undefined };
  });
  return { defaults, fields };
}

/** A field's arguments for one request: planned when constant, else with this request's variables. */
function fieldArguments(f: FieldPlan, variables: Record<string, unknown>): Record<string, unknown> {
  return f.variableArgs === undefined ? (f.constantArgs ?? {}) : argumentValues(f.variableArgs, variables);
}

interface CollectedField {
  responseKey: string;
  name: string;
  node: FieldNode;
}

/**
 * The operation's top-level fields through fragments and @skip/@include.
 * With `reads`, notes whether a directive read a variable (the result then
 * holds only for these variables).
 */
function collectFields(op: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>, variables: Record<string, unknown>, reads: { variables: boolean } | undefined): { fields: CollectedField[] } | { problem: string } {
  const fields: CollectedField[] = [];
  const seen = new Set<string>();
  const collect = (set: SelectionSetNode, depth: number, visited: Set<string>): string | undefined => {
    for (const sel of set.selections) {
      if (!included(sel.directives, variables, reads)) continue;
      if (sel.kind === Kind.FIELD) {
        const responseKey = sel.alias?.value ?? sel.name.value;
        // Fields selected twice under one key merge into one answer (GraphQL field merging).
        if (seen.has(responseKey)) continue;
        seen.add(responseKey);
        if (fields.length >= GRAPHQL_MAX_FIELDS) return `More than ${GRAPHQL_MAX_FIELDS} top-level fields in one operation`;
        fields.push({ responseKey, name: sel.name.value, node: sel });
      } else {
        if (depth >= MAX_FRAGMENT_DEPTH) return "Fragments are nested too deeply";
        let inner: SelectionSetNode;
        if (sel.kind === Kind.INLINE_FRAGMENT) inner = sel.selectionSet;
        else {
          const name = sel.name.value;
          const fragment = fragments.get(name);
          if (!fragment) return `Unknown fragment "${name}"`;
          if (visited.has(name)) return `Cannot spread fragment "${name}" within itself`;
          inner = fragment.selectionSet;
          const problem = collect(inner, depth + 1, new Set(visited).add(name));
          if (problem) return problem;
          continue;
        }
        const problem = collect(inner, depth + 1, visited);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  const problem = collect(op.selectionSet, 0, new Set());
  return problem ? { problem } : { fields };
}

function usesVariable(value: ValueNode): boolean {
  switch (value.kind) {
    case Kind.VARIABLE:
      return true;
    case Kind.LIST:
      return value.values.some(usesVariable);
    case Kind.OBJECT:
      return value.fields.some((f) => usesVariable(f.value));
    default:
      return false;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Deepest nesting of braces, brackets and parentheses outside strings and comments (one linear pass). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "#") {
      while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
    } else if (c === '"') {
      if (text.startsWith('"""', i)) {
        // Block string: ends at the next unescaped """.
        i += 3;
        while (i < text.length && !(text.startsWith('"""', i) && text[i - 1] !== "\\")) i++;
        i += 2;
      } else {
        i++;
        while (i < text.length && text[i] !== '"' && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
      }
    } else if (c === "{" || c === "[" || c === "(") {
      if (++depth > max) max = depth;
    } else if (c === "}" || c === "]" || c === ")") {
      depth--;
    }
  }
  return max;
}

function argumentsOf(field: FieldNode, variables: Record<string, unknown>): Record<string, unknown> {
  return argumentValues(field.arguments ?? [], variables);
}

/** Argument values with variables substituted (absent variables leave their argument out). */
function argumentValues(nodes: readonly ArgumentNode[], variables: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const a of nodes) {
    const value = valueFromASTUntyped(a.value, variables);
    if (value !== undefined) args[a.name.value] = value;
  }
  return args;
}

/** @skip(if:) and @include(if:), with literal or variable conditions; `reads` notes a condition that reads a variable. */
function included(directives: FieldNode["directives"], variables: Record<string, unknown>, reads?: { variables: boolean }): boolean {
  for (const d of directives ?? []) {
    const name = d.name.value;
    if (name !== "skip" && name !== "include") continue;
    const arg = d.arguments?.find((a) => a.name.value === "if");
    if (reads && arg && usesVariable(arg.value)) reads.variables = true;
    const value = arg ? valueFromASTUntyped(arg.value, variables) === true : false;
    if (name === "skip" && value) return false;
    if (name === "include" && !value) return false;
  }
  return true;
}

/**
 * What conditions and `$.req` see for one field: the request's variables,
 * overlaid with that field's arguments (variables substituted), so
 * `user(id: 5)` and `user(id: $id)` with {"id": 5} both give `$.id` = 5.
 */
export function fieldRequestBody(op: GraphqlOperation, field: TopField): Record<string, unknown> {
  return { ...op.variables, ...field.args };
}

/** The root type's name, the answer to a top-level `__typename`. */
export function rootTypeName(operation: OperationType): string {
  return operation === "query" ? "Query" : operation === "mutation" ? "Mutation" : "Subscription";
}

/**
 * A mock's payload as the field's value. Accepted forms, for a field `users`:
 * the bare value (`[…]`), an object whose only key is the field
 * (`{"users": […]}`), or a whole GraphQL response (`{"data": {"users": […]}}`,
 * whose `errors` are added to the answer's). A string payload that is JSON is
 * read as JSON (template files render to text).
 */
export function fieldValueOf(payload: unknown, fieldName: string): { value: unknown; errors: unknown[] } {
  let p = payload;
  if (typeof p === "string") {
    const first = p.trimStart()[0];
    if (first === "{" || first === "[") {
      try {
        p = JSON.parse(p);
      } catch {}
    }
  }
  if (p === undefined) return { value: null, errors: [] };
  if (isObject(p)) {
    const keys = Object.keys(p);
    if (keys.length === 1 && keys[0] === fieldName) return { value: p[fieldName], errors: [] };
    if ("data" in p && keys.every((k) => k === "data" || k === "errors" || k === "extensions") && isObject(p.data) && Object.prototype.hasOwnProperty.call(p.data, fieldName)) {
      return { value: p.data[fieldName], errors: Array.isArray(p.errors) ? p.errors : [] };
    }
  }
  return { value: p, errors: [] };
}

/** A `graphqlErrors` item as a GraphQL error: objects as written, anything else as the message. */
export function asGraphqlError(e: unknown): Record<string, unknown> {
  if (isObject(e)) return e;
  return { message: typeof e === "string" ? e : JSON.stringify(e) };
}

/**
 * The `graphql` block of a mock for a captured miss, whose path reads
 * "<path> <operation> <field>" (see server/transport/graphql-stub.ts).
 */
export function graphqlBlockOfCapture(captured: string): { path: string; operation: OperationType; field: string } | null {
  const m = /^(\S+) (query|mutation|subscription) (\S+)$/.exec(captured);
  return m ? { path: m[1], operation: m[2] as OperationType, field: m[3] } : null;
}
