// A mock prepared for serving: route compiled, conditions and templates
// pre-parsed, once per mock version. Nothing here runs per request.
import { protocolOf, SSE_CHAIN_DEFAULTS, type MockDefinition, type MockResponse } from "@/server/contracts/mock";
import { targetFromRequestData } from "@/server/contracts/outbound-target";
import { compileConditions } from "./conditions";
import { parsePath } from "./json-path";
import { placerFor, type ServedProtocol } from "./protocols";
import { compileSoapFault, type CompiledSoapFault } from "./protocols/soap-fault";
import { compileRoute, normalizePath } from "./route";
import { equalityKey, type IndexedMock } from "./route-index";
import { compileUserRegex, InvalidRegexError, type SafeRegex } from "./safe-regex";
import { compileString, compileTemplate, renderString, type CompiledString, type CompiledTemplate, type JsonTextTemplate } from "./template";
import type { ChainControls, RenderedEvent, StaticWire, StoreAccess } from "./types";

// valueFromFile paths see the request, not the stores (conditions run before any store write).
const NO_STORES: StoreAccess = { getGlobal: () => undefined, getChain: () => undefined, setGlobal: () => {}, setChain: () => {} };

/** One event of `response.sseEventChain` (SSE streams them; see server/transport/sse-stub.ts). */
export interface CompiledEvent {
  eventName: CompiledString | undefined;
  data: CompiledTemplate | undefined;
  /** The source data, used as is when `data` has no placeholders. */
  source: unknown;
  /** `templatePath`: the data is this template file, rendered. */
  templatePath: CompiledString | undefined;
  id: CompiledString | undefined;
  retryMs: number | undefined;
  delayMs: number;
  /** SSE: an event without placeholders, rendered and put in wire form once, at its first use (null: it has placeholders). */
  fixed?: RenderedEvent | null;
}

export interface CompiledResponse {
  source: MockResponse;
  statusCode: number;
  payload: CompiledTemplate | undefined;
  headers: [string, ReturnType<typeof compileString>[]][];
  /** `sseEventChain.events`, compiled; undefined when the response has no chain. */
  events: CompiledEvent[] | undefined;
  chain: ChainControls | undefined;
  /**
   * `decode: base64` outside HTTP: the decoded payload as UTF-8 text, which
   * replaces the payload (SOAP, MCP, GraphQL, SSE carry text). HTTP keeps the
   * base64 payload as the body (what the request log shows) with the decoded
   * bytes preset as its `wire`.
   */
  decodedText: string | undefined;
  /** SOAP mocks: `response.soapFault` as ready envelopes. */
  soapFault: CompiledSoapFault | undefined;
  mcpIsError: boolean;
  payloadTemplatePath: ReturnType<typeof compileString> | undefined;
  delayMs: number;
  /** GraphQL mocks: `response.graphqlErrors`, templated like the payload. */
  graphqlErrors: CompiledTemplate | undefined;
  /** A payload without placeholders as bytes, made at its first use (most of 10,000 mocks are never hit). */
  wire?: StaticWire;
  /** An HTTP payload with placeholders as JSON text with slots (null: its root is a placeholder or text), made at its first use. */
  jsonText?: JsonTextTemplate | null;
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
  /** Round-robin position for oneOf order (per process); starts at `oneOf.offset`. */
  turn: { next: number };
  /** `http.routePattern`, anchored, and the pathPrefix length cut off before testing it. */
  pathPattern: { regex: SafeRegex; prefixLength: number } | undefined;
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

type Chain = NonNullable<MockResponse["sseEventChain"]>;

function compileEvents(chain: Chain): CompiledEvent[] {
  return chain.events.map((e) => {
    // The Go client sends `data: null` for an event without data.
    const data = e.data === null ? undefined : e.data;
    return {
      eventName: e.eventName === undefined ? undefined : compileString(e.eventName),
      data: data === undefined ? undefined : compileTemplate(data),
      source: data,
      templatePath: e.templatePath ? compileString(e.templatePath) : undefined,
      id: e.id === undefined ? undefined : compileString(e.id),
      retryMs: e.retry,
      delayMs: e.delay ?? 0,
    };
  });
}

function chainControls(chain: Chain): ChainControls {
  const d = SSE_CHAIN_DEFAULTS;
  return {
    loop: chain.loop ?? false,
    loopDelayMs: chain.loopDelay ?? d.loopDelay,
    heartbeatMs: chain.heartbeat ?? d.heartbeat,
    maxLoops: chain.maxLoops ?? d.maxLoops,
    maxTimeMs: (chain.maxTime ?? d.maxTime) * 1000,
    logBatch: chain.logBatch ?? d.logBatch,
  };
}

function compileResponse(r: MockResponse | undefined, protocol: string): CompiledResponse {
  const source = r ?? {};
  const base64 = source.decode === "base64" && typeof source.payload === "string" ? Buffer.from(source.payload.replace(/\s+/g, ""), "base64") : undefined;
  const headers = Object.entries(source.headers ?? {}).map(([name, values]) => [name, values.map((v) => compileString(v))] as [string, CompiledString[]]);
  // Decoded bytes are not JSON: without a Content-Type of the mock's own they go out as octet-stream.
  if (base64 && protocol === "http" && !headers.some(([name]) => name.toLowerCase() === "content-type")) headers.push(["Content-Type", [compileString("application/octet-stream")]]);
  const chain = source.sseEventChain;
  const binary = base64 !== undefined && protocol === "http";
  return {
    source,
    statusCode: source.statusCode ?? 200,
    // Base64 text holds no placeholders (no "{{", no "$."), so it is never rendered.
    payload: source.payload === undefined || (base64 && !binary) ? undefined : compileTemplate(source.payload),
    wire: binary ? { of: source.payload, bytes: base64 } : undefined,
    headers,
    events: chain && compileEvents(chain),
    chain: chain && chainControls(chain),
    decodedText: base64 && !binary ? base64.toString("utf8") : undefined,
    soapFault: source.soapFault && compileSoapFault(source.soapFault),
    mcpIsError: source.mcpIsError ?? false,
    payloadTemplatePath: source.payloadTemplatePath ? compileString(source.payloadTemplatePath) : undefined,
    delayMs: source.delay ?? 0,
    graphqlErrors: source.graphqlErrors === undefined ? undefined : compileTemplate(source.graphqlErrors),
  };
}

/** Whether the request path fits the mock's routePattern (true without one). */
export function pathPatternFits(mock: CompiledMock, path: string): boolean {
  const p = mock.pathPattern;
  return p === undefined || p.regex.test(p.prefixLength === 0 ? path : path.slice(p.prefixLength) || "/");
}

/** The routePattern must match the whole path below pathPrefix (anchored here, so users write no ^…$). */
function compilePathPattern(def: MockDefinition): CompiledMock["pathPattern"] {
  const pattern = def.http?.routePattern;
  if (pattern === undefined) return undefined;
  const prefix = def.pathPrefix ? normalizePath(def.pathPrefix) : "/";
  let regex: SafeRegex;
  try {
    regex = compileUserRegex(`^(?:${pattern})$`);
  } catch (err) {
    // Name the pattern as the user wrote it, so a 400 can point at http.routePattern.
    throw err instanceof InvalidRegexError ? new InvalidRegexError(pattern, err.reason) : err;
  }
  return { regex, prefixLength: prefix === "/" ? 0 : prefix.length };
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
  const responses = def.oneOf ? def.oneOf.responses.map((r) => compileResponse(r, protocol)) : [compileResponse(def.response, protocol)];
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
    turn: { next: (def.oneOf?.offset ?? 0) % responses.length },
    pathPattern: compilePathPattern(def),
    mStore: def.mStore ? compileTemplate(def.mStore) : undefined,
    extract: { mStore: entries(def.extract?.mStore), cStore: entries(def.extract?.cStore), gStore: entries(def.extract?.gStore) },
    webhooks: (def.webhooks ?? []).map(compileWebhook),
  };
}
