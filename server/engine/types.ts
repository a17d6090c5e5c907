// The engine's vocabulary: a protocol-neutral request in, a response out, and
// the small interfaces through which it reaches the world (clock, randomness,
// stores, template files). Adapters (HTTP fast path, gRPC, brokers…) build
// EngineRequests; tests use the in-memory implementations in ./testing.ts.
import type { MockResponse } from "@/server/contracts/mock";
import type { CompiledSoapFault } from "./protocols/soap-fault";

/** What the engine needs of the world; the serving core (server/serving) supplies it per namespace. */
export interface EngineDeps {
  clock: Clock;
  random: Random;
  stores: StoreAccess;
  files: TemplateFiles;
  /** Atomically takes one use of a limited mock; false when it is used up. */
  takeUse(mockId: string, limit: number): Promise<boolean>;
}

export interface EngineRequest {
  namespace: string;
  method: string;
  /** Path after /stubs/<namespace>, always starting with "/". */
  path: string;
  /** Lower-case header names; values are lists, as the spec's $.reqHeader.X[0] expects. */
  headers: Record<string, string[]>;
  query: Record<string, string[]>;
  /** Parsed body: JSON value, form fields as an object, or the raw text. */
  body: unknown;
  rawBody?: string;
}

export interface EngineResponse {
  status: number;
  headers: Record<string, string[]>;
  /** The rendered `sseEventChain.events`, when the response has a chain. */
  events?: RenderedEvent[];
  /** How the chain's stream runs (loop, heartbeat, bounds), when the response has a chain. */
  chain?: ChainControls;
  /** SOAP mocks: answer this fault instead of the payload. */
  soapFault?: CompiledSoapFault;
  /** MCP tools/call: the result is an error result (`isError: true`). */
  mcpIsError?: boolean;
  /** A JSON value (serialised by the adapter) or a string sent as is. */
  body: unknown;
  /**
   * The body's bytes when they never change (a payload without placeholders),
   * serialised once per mock, valid only while `of` is still `body`: an
   * adapter that swaps the body (SOAP wraps it) leaves them behind.
   */
  wire?: StaticWire;
  delayMs: number;
  /** gRPC mocks: the status message, rich error details and the pause between streamed messages, as the mock gives them. */
  grpc?: Pick<MockResponse, "error" | "errorDetails" | "streamDelayMs">;
  /** GraphQL mocks: the rendered `response.graphqlErrors`, answered in `errors`. */
  graphqlErrors?: unknown[];
}

export interface StaticWire {
  of: unknown;
  bytes: Buffer;
}

export interface RenderedEvent {
  /** Undefined when the event has none (the protocol's default applies). */
  eventName: string | undefined;
  /**
   * A JSON value, a string, or undefined for no data. For SSE mocks a
   * templated JSON value may come as its JSON text: the same bytes on the wire.
   */
  data: unknown;
  /** SSE: the event already in wire form, valid when written under `wire.eventName` (see formatSseEvent). */
  wire?: { eventName: string | undefined; text: string };
  /** Milliseconds before this event. */
  delayMs: number;
  /** The `id:` field, when the event has one. */
  id?: string;
  /** The `retry:` field (milliseconds), when the event has one. */
  retryMs?: number;
}

/** How an SSE chain's stream runs, defaults applied (docs/decisions.md, "SSE mocks"). */
export interface ChainControls {
  loop: boolean;
  loopDelayMs: number;
  /** 0: no heartbeat. */
  heartbeatMs: number;
  maxLoops: number;
  maxTimeMs: number;
  /** Events per progress line in the server log; 0: none. */
  logBatch: number;
}

/** Key-value state that templates read and `extract` writes. Values are JSON values. */
export interface StoreAccess {
  getGlobal(namespace: string, key: string): unknown;
  getChain(namespace: string, chainId: string, key: string): unknown;
  setGlobal(namespace: string, key: string, value: unknown): Promise<void> | void;
  setChain(namespace: string, chainId: string, key: string, value: unknown): Promise<void> | void;
}

/** Uploaded template files of a namespace (Template endpoints). */
export interface TemplateFiles {
  read(namespace: string, fileName: string): string | undefined;
}

export interface Clock {
  now(): number;
}

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** True when draws need not be reproducible (not seeded): generators may then use a faster native source, e.g. crypto.randomUUID. */
  unseeded?: boolean;
}

/** What a template can read while a response is formed. */
export interface TemplateContext {
  request: EngineRequest;
  pathParams: Record<string, string>;
  namespace: string;
  chainId?: string;
  /** The mock store of this one processing (mStore), already merged with extract.mStore writes. */
  mockStore: Record<string, unknown>;
  stores: StoreAccess;
  clock: Clock;
  random: Random;
}
