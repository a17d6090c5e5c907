// The shape of a mock prepared for serving (made by ./compile-mock.ts). A
// leaf: the placers and the respond step need these types, and importing them
// from compile-mock, which imports the placers, would be a loop.
import type { MockDefinition, MockResponse } from "@/server/contracts/mock";
import type { CompiledConditions } from "./conditions";
import type { ServedProtocol } from "./protocols/placement";
import type { CompiledSoapFault } from "./protocols/soap-fault";
import type { IndexedMock } from "./route-index";
import type { SafeRegex } from "./safe-regex";
import type { CompiledString, CompiledTemplate, JsonTextTemplate } from "./template";
import type { ChainControls, RenderedEvent, StaticWire } from "./types";

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
  headers: [string, CompiledString[]][];
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
  payloadTemplatePath: CompiledString | undefined;
  delayMs: number;
  /** GraphQL mocks: `response.graphqlErrors`, templated like the payload. */
  graphqlErrors: CompiledTemplate | undefined;
  /** A payload without placeholders as bytes, made at its first use (most of 10,000 mocks are never hit). */
  wire?: StaticWire;
  /** An HTTP payload with placeholders as JSON text with slots (null: its root is a placeholder or text), made at its first use. */
  jsonText?: JsonTextTemplate | null;
}

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
  conditions: CompiledConditions;
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
