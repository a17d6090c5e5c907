// Inside the isolate: the globals one script sees — `pm`, Postman's legacy
// names (`postman`, `tests`, `responseBody`…), console, timers and `require`.
// Installed afresh for every script, since the context is shared by a run's
// scripts and a script may have overwritten any of them.
import type chaiModule from "chai";
import { atob, btoa } from "./base64";
import { makeConsole } from "./console";
import { makeTv4 } from "./json-schema";
import { ScriptRequestModel } from "./request";
import { cookieList, ScriptResponse } from "./response";
import { Run, SKIP_SIGNAL } from "./run";
import { makeSendRequest } from "./send-request";
import { makeTest } from "./tests";
import { makeTimers } from "./timers";
import { IterationData, Stores, uuidv4, Variables, VariableScope } from "./variables";

type Chai = typeof chaiModule;

const MODULES: Record<string, (chai: Chai) => unknown> = {
  chai: (chai) => chai,
  atob: () => atob,
  btoa: () => btoa,
  uuid: () => ({ v4: uuidv4 }),
};
const RESPONSE_GLOBALS = ["responseBody", "responseCode", "responseTime", "responseHeaders", "responseCookies"];

function sanitize(v: unknown): unknown {
  if (v === undefined) return undefined;
  const text = JSON.stringify(v);
  return text === undefined ? undefined : JSON.parse(text);
}

export interface Installed {
  stores: Stores;
  request: ScriptRequestModel;
  timers: ReturnType<typeof makeTimers>;
  send: ReturnType<typeof makeSendRequest>;
}

export function installGlobals(run: Run, chai: Chai, onError: (e: unknown) => void): Installed {
  const input = run.input;
  const stores = new Stores(input.scopes);
  const request = new ScriptRequestModel(input.request);
  const response = input.response ? new ScriptResponse(input.response) : undefined;
  const timers = makeTimers(run, onError);
  const send = makeSendRequest(run, onError);
  const environment = new VariableScope(stores, "environment", input.info.environmentName);
  const globalsScope = new VariableScope(stores, "globals");
  const iterationData = new IterationData(stores, "data");
  const setNextRequest = (name: unknown) => {
    run.nextRequest = { value: name === null ? null : String(name) };
  };
  const cookies = Object.assign(cookieList(input.cookies), {
    jar() {
      throw new Error("pm.cookies.jar() is not available in this sandbox");
    },
  });
  const location = Object.assign([input.info.collectionName, input.info.requestName].filter((x): x is string => typeof x === "string"), { current: input.info.requestName });
  const execution: Record<string, unknown> = { setNextRequest, location };
  if (input.scriptType === "preRequest") {
    execution.skipRequest = () => {
      run.skipRequest = true;
      throw SKIP_SIGNAL;
    };
  }
  execution.runRequest = () => {
    throw new Error("pm.execution.runRequest is not available in this sandbox");
  };

  const pm: Record<string, unknown> = {
    info: { eventName: input.info.eventName, iteration: input.info.iteration, iterationCount: input.info.iterationCount, requestName: input.info.requestName, requestId: input.info.requestId },
    environment,
    collectionVariables: new VariableScope(stores, "collection"),
    globals: globalsScope,
    iterationData,
    variables: new Variables(stores),
    request,
    response,
    cookies,
    expect: chai.expect,
    sendRequest: send.sendRequest,
    execution,
    visualizer: {
      set(template: unknown, data?: unknown) {
        run.visualizer = { template: String(template), data: sanitize(data) ?? null };
      },
      clear() {
        run.visualizer = undefined;
      },
    },
    require(name: unknown) {
      throw new Error(`pm.require('${String(name)}') is not available in this sandbox (no package library)`);
    },
  };
  pm.test = makeTest(run, pm);

  const postman = {
    setEnvironmentVariable: (k: string, v: unknown) => environment.set(k, v),
    getEnvironmentVariable: (k: string) => environment.get(k),
    clearEnvironmentVariable: (k: string) => environment.unset(k),
    clearEnvironmentVariables: () => environment.clear(),
    setGlobalVariable: (k: string, v: unknown) => globalsScope.set(k, v),
    getGlobalVariable: (k: string) => globalsScope.get(k),
    clearGlobalVariable: (k: string) => globalsScope.unset(k),
    clearGlobalVariables: () => globalsScope.clear(),
    setNextRequest,
    getResponseHeader: (name: string) => response?.headers.get(String(name)),
    getResponseCookie: (name: string) => response?.cookies.one(String(name)),
  };

  const g = globalThis as Record<string, unknown>;
  const define = (name: string, value: unknown) => Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
  /** Built on first read: most scripts never touch the legacy snapshots. */
  const lazy = (name: string, make: () => unknown) =>
    Object.defineProperty(g, name, {
      configurable: true,
      enumerable: false,
      get() {
        const value = make();
        define(name, value);
        return value;
      },
      set(value) {
        define(name, value);
      },
    });

  const consoleObject = makeConsole(run);
  define("pm", pm);
  define("postman", postman);
  define("console", consoleObject);
  define("tests", {});
  define("iteration", input.info.iteration);
  for (const name of ["setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate"] as const) define(name, timers[name]);
  define("atob", atob);
  define("btoa", btoa);
  define("tv4", makeTv4());
  define("require", (name: unknown) => {
    const key = String(name);
    if (Object.prototype.hasOwnProperty.call(MODULES, key)) return MODULES[key](chai);
    throw new Error(`module '${key}' is not available in the sandbox (available: ${Object.keys(MODULES).join(", ")})`);
  });
  lazy("environment", () => environment.toObject());
  lazy("globals", () => globalsScope.toObject());
  lazy("data", () => iterationData.toObject());
  lazy("request", () => ({ id: request.id, name: request.name, url: request.url.toString(), method: request.method, headers: request.getHeaders(), data: request.body.mode === "urlencoded" ? request.body.urlencoded.toObject() : request.body.toString() }));
  if (response) {
    define("responseBody", response.text());
    define("responseCode", { code: response.code, name: response.status, detail: response.status });
    define("responseTime", response.responseTime);
    lazy("responseHeaders", () => Object.fromEntries(response.headers.all().map((h) => [h.key, h.value])));
    lazy("responseCookies", () => response.cookies.all().map((c) => ({ ...c })));
  } else {
    for (const name of RESPONSE_GLOBALS) delete g[name];
  }
  return { stores, request, timers, send };
}
