// The k6 scripting API as TypeScript declarations that Monaco's JavaScript
// service loads as an extra lib, so a load script gets completions and hovers
// for `http.get`, `check`, `new Trend(…)`, `__ENV`, `export const options`.
// @types/k6 is not installed here, so this is a compact hand-written subset
// matching what the load engine provides (server/perf/k6/modules.ts): a name
// missing here may still run, it is just not suggested.

export const K6_API_FILE = "ts:polymock/k6-api.d.ts";

export const K6_API_DTS = `
/** Values of the environment the run was given (the config's environment values), as in k6's __ENV. */
declare const __ENV: { [name: string]: string };
/** The current VU's number, from 1 (0 in the init context). */
declare const __VU: number;
/** The current VU's iteration, from 0. */
declare const __ITER: number;
/** Reads a file given with the run (init context only); "b" returns an ArrayBuffer. */
declare function open(path: string): string;
declare function open(path: string, mode: "b"): ArrayBuffer;

declare module "k6" {
  /** Runs each check against val; a check is passed when its function returns a truthy value. Returns true when all passed. */
  export function check<T>(val: T, sets: { [name: string]: (v: T) => unknown }, tags?: { [name: string]: string }): boolean;
  /** Groups requests and checks under a name in the summary (root_group). */
  export function group<T>(name: string, fn: () => T): T;
  /** Pauses the VU for a number of seconds (fractions allowed). */
  export function sleep(seconds: number): void;
  /** Ends this iteration with an error. */
  export function fail(message?: string): never;
  export function randomSeed(seed: number): void;
  const k6: { check: typeof check; group: typeof group; sleep: typeof sleep; fail: typeof fail; randomSeed: typeof randomSeed };
  export default k6;
}

declare module "k6/http" {
  export type RequestBody = string | ArrayBuffer | { [key: string]: string | number | boolean | FileData } | null;
  export interface FileData { data: string | ArrayBuffer; filename?: string; content_type?: string }
  export interface Params {
    headers?: { [name: string]: string };
    /** Tags added to this request's metrics: name groups URLs in the summary. */
    tags?: { [name: string]: string };
    cookies?: { [name: string]: string };
    /** A duration such as "10s" or milliseconds. */
    timeout?: string | number;
    redirects?: number;
    responseType?: "text" | "binary" | "none";
    auth?: "basic" | "digest" | "ntlm";
    /** Which statuses count as expected (not failed) in http_req_failed. */
    responseCallback?: unknown;
  }
  export interface Timings {
    /** Total time for the request, in ms (sending + waiting + receiving). */
    duration: number;
    blocked: number; connecting: number; tls_handshaking: number;
    sending: number; waiting: number; receiving: number;
  }
  export interface Response {
    status: number;
    status_text: string;
    body: string | ArrayBuffer | null;
    headers: { [name: string]: string };
    cookies: { [name: string]: { name: string; value: string }[] };
    url: string;
    error: string;
    error_code: number;
    timings: Timings;
    proto: string;
    request: { method: string; url: string; headers: { [name: string]: string[] }; body: string };
    /** Parses the body as JSON; with a selector ("data.items.0.id") returns that value. */
    json(selector?: string): any;
  }
  export type BatchRequest = string | [string, string, RequestBody?, Params?] | { method: string; url: string; body?: RequestBody; params?: Params };
  export function get(url: string, params?: Params): Response;
  export function head(url: string, params?: Params): Response;
  export function options(url: string, body?: RequestBody, params?: Params): Response;
  export function post(url: string, body?: RequestBody, params?: Params): Response;
  export function put(url: string, body?: RequestBody, params?: Params): Response;
  export function patch(url: string, body?: RequestBody, params?: Params): Response;
  /** DELETE (delete is a reserved word). */
  export function del(url: string, body?: RequestBody, params?: Params): Response;
  export function request(method: string, url: string, body?: RequestBody, params?: Params): Response;
  /** Sends several requests in parallel. */
  export function batch(requests: BatchRequest[]): Response[];
  export function batch(requests: { [name: string]: BatchRequest }): { [name: string]: Response };
  /** Tagged template for URLs: the name tag is the template, so one entry per endpoint in the summary. */
  export function url(strings: TemplateStringsArray, ...values: unknown[]): string;
  export function expectedStatuses(...statuses: (number | { min: number; max: number })[]): unknown;
  export function setResponseCallback(callback: unknown): void;
  const http: {
    get: typeof get; head: typeof head; options: typeof options; post: typeof post; put: typeof put; patch: typeof patch; del: typeof del;
    request: typeof request; batch: typeof batch; url: typeof url; expectedStatuses: typeof expectedStatuses; setResponseCallback: typeof setResponseCallback;
  };
  export default http;
}

declare module "k6/metrics" {
  /** A sum: count and rate in the summary. */
  export class Counter { constructor(name: string, isTime?: boolean); name: string; add(value: number, tags?: { [name: string]: string }): void }
  /** The last value: value, min and max in the summary. */
  export class Gauge { constructor(name: string, isTime?: boolean); name: string; add(value: number, tags?: { [name: string]: string }): void }
  /** The share of non-zero values: rate, passes and fails in the summary. */
  export class Rate { constructor(name: string); name: string; add(value: number | boolean, tags?: { [name: string]: string }): void }
  /** A distribution: avg, min, med, max, p(90), p(95) in the summary; isTime shows values as durations. */
  export class Trend { constructor(name: string, isTime?: boolean); name: string; add(value: number, tags?: { [name: string]: string }): void }
}

declare module "k6/data" {
  /** Data built once in the init context and shared read-only by every VU. */
  export class SharedArray<T = any> implements ArrayLike<T> {
    constructor(name: string, build: () => T[]);
    readonly length: number;
    readonly [n: number]: T;
    [Symbol.iterator](): IterableIterator<T>;
  }
}

declare module "k6/encoding" {
  export function b64encode(input: string | ArrayBuffer, encoding?: "std" | "rawstd" | "url" | "rawurl"): string;
  export function b64decode(input: string, encoding?: "std" | "rawstd" | "url" | "rawurl", format?: "s"): string;
}

declare module "k6/execution" {
  const exec: {
    vu: { idInTest: number; idInInstance: number; iterationInInstance: number; iterationInScenario: number };
    scenario: { name: string; executor: string; startTime: number; progress: number; iterationInTest: number };
    test: { abort(message?: string): never; options: any };
    instance: { vusActive: number; vusInitialized: number; iterationsCompleted: number; currentTestRunDuration: number };
  };
  export default exec;
}

/** What \`export const options\` may hold (the common fields; the engine names anything it refuses). */
interface K6Options {
  /** Virtual users running the default function in parallel. */
  vus?: number;
  /** How long to run, such as "30s" or "5m". */
  duration?: string;
  iterations?: number;
  /** A ramp: each stage moves the VU count to target over duration. */
  stages?: { duration: string; target: number }[];
  /** metric (with tag filter) → expressions: { http_req_duration: ["p(95)<500"], http_req_failed: ["rate<0.01"] }. */
  thresholds?: { [metric: string]: (string | { threshold: string; abortOnFail?: boolean; delayAbortEval?: string })[] };
  scenarios?: { [name: string]: { executor: string; [field: string]: unknown } };
  summaryTrendStats?: string[];
  [field: string]: unknown;
}
`;
