// Inside the isolate: Postman's response and request assertions as a chai
// plugin (pm.response.to.have.status(200), .to.be.ok, .to.have.jsonBody(…)),
// plus the `.to` entry point on pm.response and pm.request.
import type chaiModule from "chai";
import { validateSchema } from "./json-schema";
import { ScriptRequestModel } from "./request";
import { RESPONSES, ScriptResponse } from "./response";

type Chai = typeof chaiModule;
interface Utils {
  objDisplay(v: unknown): string;
  eql(a: unknown, b: unknown): boolean;
  flag(o: object, key: string, value?: unknown): unknown;
}
/** chai's plugin surface as this file uses it (its own typings are stricter about `this` than chai is). */
interface PluginHost {
  addProperty(name: string, fn: (this: Ctx) => void): void;
  addMethod(name: string, fn: (this: Ctx, ...args: any[]) => void): void;
  addChainableMethod(name: string, fn: (this: Ctx, ...args: any[]) => void, chain: (this: Ctx) => void): void;
  overwriteProperty(name: string, fn: (sup: (this: Ctx) => void) => (this: Ctx) => void): void;
}
interface Ctx {
  _obj: unknown;
  assert(expr: boolean, msg: string, negMsg: string, expected?: unknown, actual?: unknown, showDiff?: boolean): void;
}

const CLASSES: [string, (code: number) => boolean, string][] = [
  ["info", (c) => c >= 100 && c < 200, "1XX"],
  ["success", (c) => c >= 200 && c < 300, "2XX"],
  ["redirection", (c) => c >= 300 && c < 400, "3XX"],
  ["clientError", (c) => c >= 400 && c < 500, "4XX"],
  ["serverError", (c) => c >= 500 && c < 600, "5XX"],
  ["error", (c) => c >= 400 && c < 600, "4XX or 5XX"],
];
const CODES: [string, number][] = [
  ["accepted", 202],
  ["withoutContent", 204],
  ["badRequest", 400],
  ["unauthorized", 401],
  ["unauthorised", 401],
  ["forbidden", 403],
  ["notFound", 404],
  ["notAcceptable", 406],
  ["rateLimited", 429],
];

/** lodash-style paths: `a.b[0].c`, `a["b c"]`; '' is the whole value. */
export function pathGet(value: unknown, path: string): { found: boolean; value: unknown } {
  if (path === "") return { found: true, value };
  const parts: string[] = [];
  path.replace(/[^.[\]]+|\[(?:(-?\d+)|(["'])(.*?)\2)\]/g, (m, index, _q, key) => {
    parts.push(index ?? key ?? m);
    return m;
  });
  let node = value;
  for (const p of parts) {
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, p)) return { found: false, value: undefined };
    node = (node as Record<string, unknown>)[p];
  }
  return { found: true, value: node };
}

export function installPostmanAssertions(chai: Chai): void {
  chai.use((_chai, chaiUtils) => {
    const utils = chaiUtils as unknown as Utils;
    const A = chai.Assertion as unknown as PluginHost;
    const response = (ctx: Ctx): ScriptResponse => {
      const obj = ctx._obj;
      if (!(obj !== null && typeof obj === "object" && RESPONSES.has(obj))) throw new chai.AssertionError(`expecting a postman response object but got ${utils.objDisplay(obj)}`);
      return obj as ScriptResponse;
    };
    const requestOrResponse = (ctx: Ctx): ScriptResponse | ScriptRequestModel => {
      const obj = ctx._obj;
      if (obj instanceof ScriptRequestModel) return obj;
      return response(ctx);
    };
    const parsed = (r: ScriptResponse): { ok: true; json: unknown } | { ok: false; error: string } => {
      try {
        return { ok: true, json: JSON.parse(r.text()) };
      } catch (e) {
        return { ok: false, error: (e as Error).message };
      }
    };

    A.addProperty("postmanResponse", function () {
      const obj = this._obj;
      this.assert(obj !== null && typeof obj === "object" && RESPONSES.has(obj), "expecting a postman response object", "expecting not a postman response object");
    });
    A.addProperty("postmanRequest", function () {
      this.assert(this._obj instanceof ScriptRequestModel, "expecting a postman request object", "expecting not a postman request object");
    });
    for (const [name, test, label] of CLASSES) {
      A.addProperty(name, function () {
        const r = response(this);
        this.assert(test(r.code), `expected response code to be ${label} but found ${r.code}`, `expected response code to not be ${label} but found ${r.code}`);
      });
    }
    for (const [name, code] of CODES) {
      A.addProperty(name, function () {
        const r = response(this);
        this.assert(r.code === code, `expected response to have status code ${code} but got ${r.code}`, `expected response to not have status code ${code}`);
      });
    }
    A.overwriteProperty("ok", (sup) =>
      function () {
        const obj = this._obj;
        if (!(obj !== null && typeof obj === "object" && RESPONSES.has(obj))) return sup.call(this);
        const r = obj as ScriptResponse;
        this.assert(r.code === 200, `expected response code to be 200 but found ${r.code}`, `expected response code to not be 200 but found ${r.code}`);
      },
    );
    const statusCode = function (this: Ctx, code: unknown) {
      const r = response(this);
      this.assert(r.code === Number(code), `expected response to have status code ${code} but got ${r.code}`, `expected response to not have status code ${code}`, Number(code), r.code);
    };
    const statusReason = function (this: Ctx, reason: unknown) {
      const r = response(this);
      this.assert(r.status === String(reason), `expected response to have status reason '${reason}' but got '${r.status}'`, `expected response to not have status reason '${reason}'`, reason, r.status);
    };
    A.addMethod("statusCode", statusCode);
    A.addMethod("statusReason", statusReason);
    A.addMethod("status", function (codeOrReason: unknown) {
      return typeof codeOrReason === "number" || /^\d+$/.test(String(codeOrReason)) ? statusCode.call(this, codeOrReason) : statusReason.call(this, codeOrReason);
    });
    A.addMethod("statusCodeClass", function (classNumber: unknown) {
      const r = response(this);
      const actual = Math.floor(r.code / 100);
      this.assert(actual === Number(classNumber), `expected response code to be ${classNumber}XX but found ${r.code}`, `expected response code to not be ${classNumber}XX`);
    });
    A.addMethod("header", function (key: unknown, value?: unknown) {
      const subject = requestOrResponse(this);
      const what = subject instanceof ScriptRequestModel ? "request" : "response";
      const name = String(key);
      const present = subject.headers.has(name);
      if (value === undefined || !present) {
        this.assert(present, `expected ${what} to have header with key '${name}'`, `expected ${what} to not have header with key '${name}'`);
        if (value === undefined) return;
      }
      const actual = subject.headers.get(name);
      this.assert(actual === String(value), `expected '${name}' ${what} header to be '${value}' but got '${actual}'`, `expected '${name}' ${what} header to not be '${value}'`, String(value), actual);
    });
    A.addProperty("withBody", function () {
      const r = response(this);
      this.assert(r.text().length > 0, "expected response to have content in body", "expected response to not have content in body");
    });
    A.addProperty("json", function () {
      const r = response(this);
      const p = parsed(r);
      this.assert(p.ok, `expected response body to be a valid json but got error ${p.ok ? "" : p.error}`, "expected response body not to be a valid json");
    });
    A.addMethod("body", function (expected?: unknown) {
      const r = response(this);
      const text = r.text();
      if (expected === undefined) return this.assert(text.length > 0, "expected response to have content in body", "expected response to not have content in body");
      if (expected instanceof RegExp) return this.assert(expected.test(text), `expected response body text to match ${expected}`, `expected response body text to not match ${expected}`);
      if (typeof expected === "string") return this.assert(text === expected, `expected response body to equal '${expected}' but got '${text.slice(0, 200)}'`, `expected response body to not equal '${expected}'`, expected, text);
      const p = parsed(r);
      this.assert(p.ok && utils.eql(p.json, expected), "expected response body json to equal the given object", "expected response body json to not equal the given object", expected, p.ok ? p.json : undefined, true);
    });
    A.addMethod("jsonBody", function (path?: unknown, value?: unknown) {
      const r = response(this);
      const p = parsed(r);
      if (path === undefined || path === "") {
        return this.assert(p.ok, `expected response body to be a valid json but got error ${p.ok ? "" : p.error}`, "expected response body not to be a valid json");
      }
      if (!p.ok) return this.assert(false, `expected response body to be a valid json but got error ${p.error}`, "expected response body not to be a valid json");
      if (typeof path === "object" && path !== null) {
        return this.assert(utils.eql(p.json, path), "expected response body json to equal the given object", "expected response body json to not equal the given object", path, p.json, true);
      }
      const hit = pathGet(p.json, String(path));
      if (value === undefined) {
        return this.assert(hit.found, `expected ${utils.objDisplay(p.json)} in response to contain property '${path}'`, `expected ${utils.objDisplay(p.json)} in response to not contain property '${path}'`);
      }
      this.assert(hit.found && utils.eql(hit.value, value), `expected response body json at "${path}" to contain ${utils.objDisplay(value)} but got ${utils.objDisplay(hit.value)}`, `expected response body json at "${path}" to not contain ${utils.objDisplay(value)}`, value, hit.value, true);
    });
    A.addMethod("jsonSchema", function (schema: unknown) {
      const obj = this._obj;
      let data = obj;
      if (obj !== null && typeof obj === "object" && RESPONSES.has(obj)) {
        const p = parsed(obj as ScriptResponse);
        if (!p.ok) return this.assert(false, `expected response body to be a valid json but got error ${p.error}`, "");
        data = p.json;
      }
      const errors = validateSchema(data, schema);
      const list = errors.map((e) => `${e.path} ${e.message}`).join("\n");
      this.assert(errors.length === 0, `expected data to satisfy schema but found following errors: \n${list}`, "expected data to not satisfy schema");
    });
    for (const field of ["responseTime", "responseSize"] as const) {
      A.addChainableMethod(
        field,
        function (expected?: unknown) {
          const value = (utils.flag(this, "object") as number | undefined) ?? undefined;
          if (expected === undefined) return this.assert(typeof value === "number", `expected response to have property '${field}'`, `expected response to not have property '${field}'`);
          this.assert(value === Number(expected), `expected response ${field} to be ${expected} but got ${value}`, `expected response ${field} to not be ${expected}`);
        },
        function () {
          utils.flag(this, "object", response(this)[field]);
        },
      );
    }
  });
  for (const proto of [ScriptResponse.prototype, ScriptRequestModel.prototype]) {
    Object.defineProperty(proto, "to", {
      configurable: true,
      get() {
        return chai.expect(this).to;
      },
    });
  }
}
