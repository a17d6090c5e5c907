// A response whose JSON body was rendered straight to text (an HTTP mock's
// templated payload, see compileJsonText): the wire takes that text, and the
// value is parsed from it only when something reads `body` — a request-log
// record that is kept, the preview. Under load most answers are never read
// again, so building the value for each would be wasted work.
import type { ChainControls, EngineResponse, RenderedEvent } from "./types";

export class TextBodyResponse implements EngineResponse {
  status: number;
  headers: Record<string, string[]>;
  delayMs: number;
  events?: RenderedEvent[];
  chain?: ChainControls;
  graphqlErrors?: unknown[];
  /** The JSON text while it is still the body; cleared when the body is replaced. */
  #text: string | undefined;
  #value: unknown;

  constructor(status: number, headers: Record<string, string[]>, text: string, delayMs: number) {
    this.status = status;
    this.headers = headers;
    this.delayMs = delayMs;
    this.#text = text;
  }

  get body(): unknown {
    if (this.#value === undefined && this.#text !== undefined) this.#value = JSON.parse(this.#text);
    return this.#value;
  }

  set body(value: unknown) {
    this.#value = value;
    this.#text = undefined;
  }

  /** The body's JSON text, unless the body has been replaced since. */
  get text(): string | undefined {
    return this.#text;
  }

  // The body lives on the prototype: a spread or JSON.stringify would miss it.
  toJSON() {
    return { status: this.status, headers: this.headers, body: this.body, delayMs: this.delayMs, events: this.events, chain: this.chain, graphqlErrors: this.graphqlErrors };
  }
}

/** What an adapter sends for a response: the pre-rendered text or bytes when they are still the body, else the body serialised. */
export function responseBytes(response: EngineResponse): { body: string | Buffer; isText: boolean } {
  if (response instanceof TextBodyResponse) {
    const text = response.text;
    if (text !== undefined) return { body: text, isText: false };
  }
  const body = response.body;
  const isText = typeof body === "string";
  if (response.wire !== undefined && response.wire.of === body) return { body: response.wire.bytes, isText };
  return { body: body === undefined ? "" : isText ? (body as string) : JSON.stringify(body), isText };
}
