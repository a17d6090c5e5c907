// Inside the isolate: pm.response (and what pm.sendRequest hands its
// callback), Postman's Response object over the host's copy of the response.
import type { IsolateResponse } from "../protocol";
import { PropertyList, headerList } from "./property-list";

export class JSONError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JSONError";
  }
}

export function cookieList(cookies: { name: string; value: string; [k: string]: unknown }[]): PropertyList {
  return new PropertyList(
    cookies.map((c) => ({ ...c, key: c.name, value: c.value })),
    false,
    undefined,
    "; ",
  );
}

/** Responses made here, so chai's response assertions can tell them from look-alikes. */
export const RESPONSES = new WeakSet<object>();

export class ScriptResponse {
  readonly code: number;
  readonly status: string;
  readonly headers: PropertyList;
  readonly responseTime: number;
  readonly responseSize: number;
  readonly cookies: PropertyList;
  readonly #body: string;
  readonly #headersSize: number;

  constructor(r: IsolateResponse) {
    this.code = r.code;
    this.status = r.status;
    this.headers = headerList(r.headers);
    this.responseTime = r.responseTime;
    this.responseSize = r.responseSize;
    this.cookies = cookieList(r.cookies);
    this.#body = r.body;
    this.#headersSize = r.headersSize;
    RESPONSES.add(this);
  }

  get [Symbol.toStringTag](): string {
    return "Response";
  }

  text(): string {
    return this.#body;
  }

  json(reviver?: (key: string, value: unknown) => unknown): unknown {
    try {
      return JSON.parse(this.#body, reviver);
    } catch (e) {
      const head = this.#body.length > 40 ? `${this.#body.slice(0, 40)}…` : this.#body;
      throw new JSONError(`the response body is not valid JSON (${(e as Error).message}); it starts with ${JSON.stringify(head)}`);
    }
  }

  reason(): string {
    return this.status;
  }

  size(): { body: number; header: number; total: number } {
    return { body: this.responseSize, header: this.#headersSize, total: this.responseSize + this.#headersSize };
  }

  contentInfo(): { mimeType: string; mimeFormat: string; charset?: string } {
    const type = String(this.headers.get("Content-Type") ?? "");
    const [mime, ...params] = type.split(";");
    const mimeType = mime.trim().toLowerCase() || "text/plain";
    const charset = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("charset="));
    const format = /json/.test(mimeType) ? "json" : /xml/.test(mimeType) ? "xml" : /html/.test(mimeType) ? "html" : /^text\//.test(mimeType) ? "text" : "raw";
    return { mimeType, mimeFormat: format, ...(charset ? { charset: charset.slice(8) } : {}) };
  }

  toJSON(): Record<string, unknown> {
    return { code: this.code, status: this.status, header: this.headers.toJSON(), responseTime: this.responseTime, responseSize: this.responseSize, body: this.#body };
  }
}
