// What crosses the isolate boundary, in both directions, as JSON text only:
// the host never hands the isolate a function or object of its own, and reads
// back nothing but these shapes (which it checks, since a script can forge them).
// Type-only, so the isolate bundle and the host can both import it.

export interface IsolateLimits {
  maxLogEntries: number;
  maxLogBytes: number;
  maxTests: number;
  maxTimers: number;
  maxSendRequests: number;
}

export interface IsolateResponse {
  code: number;
  status: string;
  headers: { key: string; value: string }[];
  /** The body as text (the host decodes a base64 body as UTF-8). */
  body: string;
  responseTime: number;
  responseSize: number;
  headersSize: number;
  cookies: { name: string; value: string; domain?: string; path?: string; expires?: string; httpOnly?: boolean; secure?: boolean }[];
}

export interface IsolateInput {
  runId: number;
  scriptType: "preRequest" | "test";
  scopes: Record<"globals" | "collection" | "environment" | "data" | "local", Record<string, unknown>>;
  request: {
    method: string;
    url: string;
    headers: { key: string; value: string }[];
    body: Record<string, unknown>;
    auth?: Record<string, unknown>;
    name?: string;
    id?: string;
  };
  response: IsolateResponse | null;
  info: {
    eventName: "prerequest" | "test";
    iteration: number;
    iterationCount: number;
    requestName: string;
    requestId: string;
    collectionName?: string;
    environmentName?: string;
  };
  cookies: { name: string; value: string; domain?: string; path?: string }[];
  limits: IsolateLimits;
}

/** A script error as seen inside; `kind` is set only where the isolate knows better than the message. */
export interface RawError {
  name: string;
  message: string;
  line?: number;
  column?: number;
  kind?: "output";
}

export interface TestUpdate {
  /** Registration order: results are reported in the order tests were declared. */
  i: number;
  name: string;
  status: "passed" | "failed" | "skipped" | "pending";
  error?: string;
}

export interface FinalState {
  /** Only the scopes the script changed. */
  scopes: Partial<IsolateInput["scopes"]>;
  /** Pre-request scripts: the request, when the script changed it. */
  request?: IsolateInput["request"];
  nextRequest?: { value: string | null };
  visualizer?: { template: string; data: unknown };
  skipRequest: boolean;
}

/** Everything that happened since the previous settle. */
export interface Outbox {
  logs: { level: "log" | "info" | "warn" | "error" | "debug"; message: string; at: number }[];
  tests: TestUpdate[];
  timers: { id: number; ms: number }[];
  cancels: number[];
  sends: { id: number; request: unknown }[];
  /** The first uncaught error; it ends the script. */
  error: RawError | null;
  final?: FinalState;
}
