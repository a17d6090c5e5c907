// The `pm` scripting API as a TypeScript declaration that Monaco's JavaScript
// service loads as an extra lib, so scripts get completions and hovers for
// pm.environment.get, pm.response.to.have.status, pm.expect(…).to… and
// console. It describes what the sandbox (server/tester/sandbox) provides; a
// name missing here still runs there, it is just not suggested.

export const PM_API_FILE = "ts:polymock/pm-api.d.ts";

export const PM_API_DTS = `
/** A value stored in a variable scope: strings, numbers, booleans, objects (kept as JSON). */
type PmValue = any;

interface PmVariableScope {
  /** The variable's value, or undefined. */
  get(name: string): PmValue;
  /** Sets a variable in this scope (it is saved after the request when the scope is persisted). */
  set(name: string, value: PmValue): void;
  unset(name: string): void;
  has(name: string): boolean;
  clear(): void;
  toObject(): Record<string, PmValue>;
  /** Replaces {{variables}} in a string. */
  replaceIn(template: string): string;
}

interface PmVariables {
  /** Looks a name up through every scope: local, iteration data, environment, collection, globals. */
  get(name: string): PmValue;
  /** Sets a local variable, valid for this request (or run) only. */
  set(name: string, value: PmValue): void;
  unset(name: string): void;
  has(name: string): boolean;
  toObject(): Record<string, PmValue>;
  replaceIn(template: string): string;
}

interface PmProperty { key: string; value: string; disabled?: boolean }

interface PmPropertyList {
  get(key: string): string | null | undefined;
  has(key: string, value?: string): boolean;
  one(key: string): PmProperty | undefined;
  all(): PmProperty[];
  count(): number;
  add(item: PmProperty | string): void;
  upsert(item: PmProperty): boolean;
  remove(key: string | ((item: PmProperty) => boolean)): void;
  clear(): void;
  each(fn: (item: PmProperty, index: number) => void): void;
  filter(fn: (item: PmProperty, index: number) => boolean): PmProperty[];
  find(fn: (item: PmProperty, index: number) => boolean): PmProperty | undefined;
  toObject(excludeDisabled?: boolean, caseSensitive?: boolean, multiValue?: boolean): Record<string, string>;
  toString(): string;
}

interface PmUrl {
  protocol: string;
  host: string[];
  port?: string;
  path: string[];
  query: PmPropertyList;
  getHost(): string;
  getPath(): string;
  getQueryString(): string;
  getPathWithQuery(): string;
  addQueryParams(params: PmProperty[] | string): void;
  removeQueryParams(params: string[] | string): void;
  update(url: string): void;
  toString(): string;
}

interface PmRequestBody {
  mode: "raw" | "urlencoded" | "formdata" | "file" | "graphql" | string;
  raw?: string;
  urlencoded: PmPropertyList;
  formdata: PmPropertyList;
  graphql?: { query: string; variables?: string | object };
  update(body: string | object): void;
  isEmpty(): boolean;
  toString(): string;
}

interface PmRequest {
  id: string;
  name: string;
  method: string;
  url: PmUrl;
  headers: PmPropertyList;
  body: PmRequestBody;
  addHeader(header: PmProperty | string): void;
  upsertHeader(header: PmProperty): void;
  removeHeader(name: string): void;
  getHeaders(options?: { ignoreCase?: boolean; enabled?: boolean }): Record<string, string>;
  addQueryParams(params: PmProperty[] | string): void;
  removeQueryParams(params: string[] | string): void;
  /** Assertions on the request: pm.request.to.have.header("Content-Type"). */
  to: PmAssertion;
}

interface PmCookie { name: string; value: string; domain?: string; path?: string; expires?: string; httpOnly?: boolean; secure?: boolean }

interface PmCookieList {
  get(name: string): string | undefined;
  has(name: string): boolean;
  one(name: string): (PmProperty & PmCookie) | undefined;
  all(): (PmProperty & PmCookie)[];
  toObject(): Record<string, string>;
}

interface PmResponse {
  /** The status code: 200. */
  code: number;
  /** The reason phrase: "OK". */
  status: string;
  headers: PmPropertyList;
  cookies: PmCookieList;
  /** Milliseconds from sending to the last byte. */
  responseTime: number;
  /** Bytes of the body. */
  responseSize: number;
  /** The body parsed as JSON; throws when it is not JSON. */
  json(reviver?: (key: string, value: any) => any): any;
  /** The body as text. */
  text(): string;
  reason(): string;
  size(): { body: number; header: number; total: number };
  contentInfo(): { mimeType: string; mimeFormat: string; charset?: string };
  /** Assertions on the response: pm.response.to.have.status(200), pm.response.to.be.json. */
  to: PmAssertion;
}

/** chai's expect chain, with Postman's response and request assertions. */
interface PmAssertion {
  // Language chains (no effect, for readability).
  to: PmAssertion; be: PmAssertion; been: PmAssertion; is: PmAssertion; that: PmAssertion; which: PmAssertion;
  and: PmAssertion; has: PmAssertion; have: PmAssertion; with: PmAssertion; at: PmAssertion; of: PmAssertion;
  same: PmAssertion; but: PmAssertion; does: PmAssertion; still: PmAssertion; also: PmAssertion;
  // Flags.
  /** Negates the assertions that follow. */
  not: PmAssertion;
  /** Deep equality for equal, include, members, keys, property. */
  deep: PmAssertion;
  nested: PmAssertion; own: PmAssertion; ordered: PmAssertion; any: PmAssertion; all: PmAssertion;
  // Properties that assert.
  ok: PmAssertion; true: PmAssertion; false: PmAssertion; null: PmAssertion; undefined: PmAssertion; NaN: PmAssertion;
  exist: PmAssertion; empty: PmAssertion; finite: PmAssertion; extensible: PmAssertion; sealed: PmAssertion; frozen: PmAssertion;
  // Methods.
  /** Type check: .to.be.a("string"), .an("array"). */
  a(type: string, message?: string): PmAssertion;
  an(type: string, message?: string): PmAssertion;
  include(value: any, message?: string): PmAssertion;
  includes(value: any, message?: string): PmAssertion;
  contain(value: any, message?: string): PmAssertion;
  contains(value: any, message?: string): PmAssertion;
  /** Strict equality (===); use .eql or .deep.equal for objects. */
  equal(value: any, message?: string): PmAssertion;
  equals(value: any, message?: string): PmAssertion;
  eq(value: any, message?: string): PmAssertion;
  /** Deep equality. */
  eql(value: any, message?: string): PmAssertion;
  eqls(value: any, message?: string): PmAssertion;
  above(n: number, message?: string): PmAssertion;
  gt(n: number, message?: string): PmAssertion;
  greaterThan(n: number, message?: string): PmAssertion;
  least(n: number, message?: string): PmAssertion;
  gte(n: number, message?: string): PmAssertion;
  below(n: number, message?: string): PmAssertion;
  lt(n: number, message?: string): PmAssertion;
  lessThan(n: number, message?: string): PmAssertion;
  most(n: number, message?: string): PmAssertion;
  lte(n: number, message?: string): PmAssertion;
  within(start: number, finish: number, message?: string): PmAssertion;
  closeTo(expected: number, delta: number, message?: string): PmAssertion;
  instanceof(constructor: Function, message?: string): PmAssertion;
  property(name: string, value?: any, message?: string): PmAssertion;
  ownProperty(name: string, value?: any, message?: string): PmAssertion;
  lengthOf(n: number, message?: string): PmAssertion;
  length(n: number, message?: string): PmAssertion;
  match(re: RegExp, message?: string): PmAssertion;
  string(text: string, message?: string): PmAssertion;
  keys(...keys: string[]): PmAssertion;
  members(set: any[], message?: string): PmAssertion;
  oneOf(list: any[], message?: string): PmAssertion;
  satisfy(matcher: (value: any) => boolean, message?: string): PmAssertion;
  throw(expected?: any, message?: string): PmAssertion;
  respondTo(method: string, message?: string): PmAssertion;
  // Postman's response and request assertions.
  /** The status code (200) or reason ("OK"). */
  status(codeOrReason: number | string): PmAssertion;
  statusCode(code: number): PmAssertion;
  statusReason(reason: string): PmAssertion;
  /** The status class: 2 for 2xx. */
  statusCodeClass(classNumber: number): PmAssertion;
  /** A header, optionally with this value. */
  header(key: string, value?: string): PmAssertion;
  /** The body: present, equal to a string, matching a regular expression, or deep-equal to an object. */
  body(expected?: string | RegExp | object): PmAssertion;
  /** A JSON body, optionally with a value at a path ("data.items[0].id"). */
  jsonBody(path?: string | object, value?: any): PmAssertion;
  /** The JSON body satisfies a JSON Schema. */
  jsonSchema(schema: object): PmAssertion;
  /** pm.response.to.have.responseTime.below(200). */
  responseTime: PmAssertion & ((ms?: number) => PmAssertion);
  responseSize: PmAssertion & ((bytes?: number) => PmAssertion);
  withBody: PmAssertion; json: PmAssertion;
  success: PmAssertion; info: PmAssertion; redirection: PmAssertion; clientError: PmAssertion; serverError: PmAssertion; error: PmAssertion;
  accepted: PmAssertion; withoutContent: PmAssertion; badRequest: PmAssertion; unauthorized: PmAssertion; forbidden: PmAssertion;
  notFound: PmAssertion; notAcceptable: PmAssertion; rateLimited: PmAssertion;
}

interface PmSendRequestOptions {
  url: string;
  method?: string;
  header?: Record<string, string> | PmProperty[];
  body?: { mode: "raw"; raw: string } | { mode: "urlencoded"; urlencoded: PmProperty[] } | { mode: "formdata"; formdata: PmProperty[] };
}

interface PmTest {
  /** Declares a test; it fails when the function throws (or its promise rejects). */
  (name: string, fn: () => void | Promise<void>): void;
  (name: string, fn: (done: (error?: any) => void) => void): void;
  /** Declares a test that is reported as skipped. */
  skip(name: string, fn?: Function): void;
  /** How many tests have been declared so far. */
  index(): number;
}

interface Pm {
  info: {
    /** "prerequest" or "test". */
    eventName: "prerequest" | "test";
    /** 0-based iteration of a collection run. */
    iteration: number;
    iterationCount: number;
    requestName: string;
    requestId: string;
  };
  environment: PmVariableScope & { name?: string };
  collectionVariables: PmVariableScope;
  globals: PmVariableScope;
  /** Every scope at once, and local variables. */
  variables: PmVariables;
  /** The current row of a run's data file (CSV or JSON). */
  iterationData: { get(name: string): PmValue; has(name: string): boolean; toObject(): Record<string, PmValue>; unset(name: string): void };
  /** The request about to be sent (pre-request scripts may change it) or that was sent. */
  request: PmRequest;
  /** The response (test scripts only). */
  response: PmResponse;
  /** Cookies of the response's domain. */
  cookies: PmCookieList;
  /** chai's expect: pm.expect(value).to.equal(1). */
  expect(value: any, message?: string): PmAssertion;
  test: PmTest;
  /** Sends another HTTP request: with a callback, or awaited as a promise. */
  sendRequest(request: string | PmSendRequestOptions, callback: (error: Error | null, response: PmResponse) => void): void;
  sendRequest(request: string | PmSendRequestOptions): Promise<PmResponse>;
  execution: {
    /** Pre-request scripts: do not send this request (the script stops here). */
    skipRequest(): void;
    /** In a collection run: which request runs next (by name or id); null ends the run. */
    setNextRequest(nameOrId: string | null): void;
    /** The collection, folders and request this script belongs to. */
    location: string[] & { current: string };
  };
  visualizer: { set(template: string, data?: any): void; clear(): void };
}

declare const pm: Pm;

interface Console {
  log(...data: any[]): void;
  info(...data: any[]): void;
  warn(...data: any[]): void;
  error(...data: any[]): void;
  debug(...data: any[]): void;
}
declare const console: Console;

declare function setTimeout(fn: (...args: any[]) => void, ms?: number, ...args: any[]): number;
declare function clearTimeout(id: number | undefined): void;
declare function setInterval(fn: (...args: any[]) => void, ms?: number, ...args: any[]): number;
declare function clearInterval(id: number | undefined): void;
declare function atob(data: string): string;
declare function btoa(data: string): string;
/** The sandbox's modules: "chai", "uuid", "atob", "btoa". */
declare function require(name: "chai" | "uuid" | "atob" | "btoa" | string): any;
`;
