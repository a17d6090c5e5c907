// A mock prepared for serving: route compiled, conditions and templates
// pre-parsed, once per mock version. Nothing here runs per request.
import { protocolOf, type MockDefinition, type MockResponse } from "@/server/contracts/mock";
import { targetFromRequestData } from "@/server/contracts/outbound-target";
import { compileConditions } from "./conditions";
import { parsePath } from "./json-path";
import { placerFor, type ServedProtocol } from "./protocols";
import { compileRoute } from "./route";
import { equalityKey, type IndexedMock } from "./route-index";
import { compileString, compileTemplate, renderString, type CompiledString, type CompiledTemplate } from "./template";
import type { StaticWire, StoreAccess } from "./types";

// valueFromFile paths see the request, not the stores (conditions run before any store write).
const NO_STORES: StoreAccess = { getGlobal: () => undefined, getChain: () => undefined, setGlobal: () => {}, setChain: () => {} };

/** One event of `response.sseEventChain` (SSE streams them; see server/transport/sse-stub.ts). */
export interface CompiledEvent {
  eventName: CompiledString | undefined;
  data: CompiledTemplate | undefined;
  /** The source data, used as is when `data` has no placeholders. */
  source: unknown;
  delayMs: number;
}

export interface CompiledResponse {
  source: MockResponse;
  statusCode: number;
  payload: CompiledTemplate | undefined;
  headers: [string, ReturnType<typeof compileString>[]][];
  /** `sseEventChain.events`, compiled; undefined when the response has no chain. */
  events: CompiledEvent[] | undefined;
  payloadTemplatePath: ReturnType<typeof compileString> | undefined;
  delayMs: number;
  /** GraphQL mocks: `response.graphqlErrors`, templated like the payload. */
  graphqlErrors: CompiledTemplate | undefined;
  /** A payload without placeholders as bytes, made at its first use (most of 10,000 mocks are never hit). */
  wire?: StaticWire;
}

/** Defaults of a webhook's optional fields (docs/decisions.md, "Proxy and webhooks"). */
export const WEBHOOK_DEFAULTS = { timeoutMs: 10_000, retries: 0 };

export interface CompiledWebhook {
  type: "http" | "kafka" | "rabbitmq";
  /** Empty for kafka and rabbitmq webhooks. */
  url: CompiledString;
  /** A placeholder decides the host, so the strict private-address policy applies (server/lib/ssrf.ts). */
  fromRequestData: boolean;
  method: string;
  headers: [string, CompiledString[]][];
  body: CompiledTemplate | undefined;
  delayMs: number;
  timeoutMs: number;
  retries: number;
  /** Fixed wait between attempts; undefined: exponential backoff. */
  retryDelayMs: number | undefined;
  async: boolean;
  trigger: "on_success" | "on_error" | "always";
  rabbit: { url: string; exchange: string; routingKey: CompiledString; queue: string | undefined; mandatory: boolean } | undefined;
  kafka: { brokers: string[]; topic: string; key: CompiledString | undefined; username?: string; password?: string; sasl: boolean; tls: boolean } | undefined;
}

export interface CompiledMock extends IndexedMock {
  def: MockDefinition;
  protocol: ServedProtocol;
  conditions: ReturnType<typeof compileConditions>;
  expiresAt: number | null;
  responses: CompiledResponse[];
  pick: "single" | "order" | "random";
  /** Round-robin position for oneOf order (per process). */
  turn: { next: number };
  mStore: CompiledTemplate | undefined;
  extract: { mStore: [string, CompiledTemplate][]; cStore: [string, CompiledTemplate][]; gStore: [string, CompiledTemplate][] };
  webhooks: CompiledWebhook[];
}

/** `$.type` and `type` are one path: the key of the equality hash. */
export function canonicalPath(path: string): string {
  return parsePath(path)
    .map((s) => (typeof s === "number" ? `[${s}]` : `[${JSON.stringify(s)}]`))
    .join("");
}

function compileResponse(r: MockResponse | undefined): CompiledResponse {
  const source = r ?? {};
  return {
    source,
    statusCode: source.statusCode ?? 200,
    payload: source.payload === undefined ? undefined : compileTemplate(source.payload),
    headers: Object.entries(source.headers ?? {}).map(([name, values]) => [name, values.map((v) => compileString(v))]),
    events: source.sseEventChain?.events.map((e) => ({
      eventName: e.eventName === undefined ? undefined : compileString(e.eventName),
      data: e.data === undefined ? undefined : compileTemplate(e.data),
      source: e.data,
      delayMs: e.delay ?? 0,
    })),
    payloadTemplatePath: source.payloadTemplatePath ? compileString(source.payloadTemplatePath) : undefined,
    delayMs: source.delay ?? 0,
    graphqlErrors: source.graphqlErrors === undefined ? undefined : compileTemplate(source.graphqlErrors),
  };
}

function compileWebhook(w: NonNullable<MockDefinition["webhooks"]>[number]): CompiledWebhook {
  const type = w.type ?? "http";
  return {
    type,
    url: compileString(type === "http" ? (w.url ?? "") : ""),
    fromRequestData: type === "http" && targetFromRequestData(w.url ?? ""),
    method: w.method,
    headers: Object.entries(w.headers ?? {}).map(([name, values]) => [name, values.map((v) => compileString(v))]),
    body: w.body === undefined ? undefined : compileTemplate(w.body),
    delayMs: w.delay ?? 0,
    timeoutMs: w.timeout ?? w.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs,
    retries: w.retryCount ?? w.retries ?? WEBHOOK_DEFAULTS.retries,
    retryDelayMs: w.retryDelay,
    async: w.async ?? true,
    trigger: w.trigger ?? "always",
    rabbit:
      type === "rabbitmq"
        ? { url: w.rabbitURL ?? "", exchange: w.rabbitExchange ?? "", routingKey: compileString(w.rabbitRoutingKey ?? w.rabbitQueue ?? ""), queue: w.rabbitQueue || undefined, mandatory: w.rabbitMandatory ?? false }
        : undefined,
    kafka:
      type === "kafka"
        ? {
            brokers: [w.kafkaBrokers ?? []].flat().flatMap((b) => b.split(",")).map((b) => b.trim()).filter(Boolean),
            topic: w.kafkaTopic ?? "",
            key: w.kafkaKey === undefined ? undefined : compileString(w.kafkaKey),
            username: w.kafkaUsername,
            password: w.kafkaPassword,
            sasl: w.kafkaUseSASL ?? false,
            tls: w.kafkaUseTLS ?? false,
          }
        : undefined,
  };
}

const entries = (o: Record<string, unknown> | undefined) => Object.entries(o ?? {}).map(([k, v]) => [k, compileTemplate(v)] as [string, CompiledTemplate]);

/** Reading template files for `valueFromFile` conditions, whose paths are templated per request. */
export interface CompileDeps {
  readFile(fileName: string): string | undefined;
}

/** Mocks of the protocols the web process serves (see ./protocols); null for the others. */
export function compileMock(def: MockDefinition, sequence: number, createdAt: number, deps?: CompileDeps): CompiledMock | null {
  const protocol = protocolOf(def);
  const placement = placerFor(protocol)?.(def);
  if (!placement) return null;
  const block = placement.conditions;
  const conditions = compileConditions(
    block,
    deps && {
      readFile: deps.readFile,
      renderPath: (path, req) => renderString(compileString(path), { request: req, pathParams: {}, namespace: req.namespace, mockStore: {}, stores: NO_STORES, clock: { now: Date.now }, random: { next: Math.random } }),
    },
  );
  const equalityKeys = (block.conditions ?? [])
    .filter((c) => c.assertAction === "equals" && !c.decode && !c.valueFromFile && !c.sortArray)
    .flatMap((c) => {
      const key = equalityKey(c.value);
      return key === undefined ? [] : [{ path: canonicalPath(c.path), key }];
    });
  const responses = def.oneOf ? def.oneOf.responses.map(compileResponse) : [compileResponse(def.response)];
  return {
    id: def.id,
    def,
    protocol: protocol as ServedProtocol,
    route: compileRoute(placement.route),
    method: placement.selector,
    priority: def.priority,
    conditionCount: conditions.count,
    sequence,
    equalityKeys,
    conditions,
    expiresAt: def.ttl > 0 ? createdAt + def.ttl : null,
    responses,
    pick: def.oneOf ? def.oneOf.order : "single",
    turn: { next: 0 },
    mStore: def.mStore ? compileTemplate(def.mStore) : undefined,
    extract: { mStore: entries(def.extract?.mStore), cStore: entries(def.extract?.cStore), gStore: entries(def.extract?.gStore) },
    webhooks: (def.webhooks ?? []).map(compileWebhook),
  };
}
