// Forms the response of the chosen mock: store writes first (extract), then
// the payload, headers and status of the picked response, then the mock's
// webhooks, rendered with the same context so they see what the response saw.
import type { CompiledEvent, CompiledMock, CompiledResponse, CompiledWebhook } from "./compiled-mock";
import { MockError } from "./mock-error";
import { formatSseEvent } from "./protocols/sse";
import { TextBodyResponse } from "./rendered-body";
import { compileJsonText, hasPlaceholders, renderJsonText, renderString, renderTemplate, renderTemplateFile, TEMPLATE_LIMITS, TemplateError } from "./template";
import type { EngineDeps, EngineRequest, EngineResponse, RenderedEvent, TemplateContext } from "./types";

export class TemplateFileMissingError extends MockError {
  constructor(readonly fileName: string) {
    super(`Template file '${fileName}' does not exist in this namespace`);
  }
}

function pickResponse(mock: CompiledMock, deps: EngineDeps): CompiledResponse {
  if (mock.pick === "single") return mock.responses[0];
  if (mock.pick === "random") return mock.responses[Math.floor(deps.random.next() * mock.responses.length) % mock.responses.length];
  const r = mock.responses[mock.turn.next % mock.responses.length];
  mock.turn.next = (mock.turn.next + 1) % mock.responses.length;
  return r;
}

/** A webhook ready to send: every template resolved. Sending is the caller's job (server/services/webhooks.ts). */
export interface RenderedWebhook {
  type: CompiledWebhook["type"];
  url: string;
  /** The host came from request data: private targets need the namespace's opt-in. */
  fromRequestData: boolean;
  method: string;
  headers: Record<string, string[]>;
  /** A JSON value, or a string sent as is; undefined = no body. */
  body: unknown;
  delayMs: number;
  timeoutMs: number;
  retries: number;
  retryDelayMs: number | undefined;
  async: boolean;
  trigger: CompiledWebhook["trigger"];
  rabbit?: Omit<NonNullable<CompiledWebhook["rabbit"]>, "routingKey"> & { routingKey: string };
  kafka?: Omit<NonNullable<CompiledWebhook["kafka"]>, "key"> & { key: string | undefined };
}

export interface RenderedMatch {
  response: EngineResponse;
  webhooks: RenderedWebhook[];
  /** Webhooks whose templates failed to render (e.g. over the size limit): skipped, reported, never failing the response. */
  webhookErrors: { index: number; error: string }[];
}

/** on_success: the stub answered 1xx–3xx; on_error: 4xx/5xx; always: every match (docs/decisions.md). */
export function webhookTriggered(trigger: CompiledWebhook["trigger"], status: number): boolean {
  if (trigger === "always") return true;
  return (status < 400) === (trigger === "on_success");
}

function renderWebhook(w: CompiledWebhook, ctx: TemplateContext): RenderedWebhook {
  const headers: Record<string, string[]> = {};
  for (const [name, values] of w.headers) headers[name] = values.map((v) => renderString(v, ctx));
  const body = w.body === undefined ? undefined : renderTemplate(w.body, ctx);
  const out: RenderedWebhook = {
    type: w.type,
    url: renderString(w.url, ctx),
    fromRequestData: w.fromRequestData,
    method: w.method,
    headers,
    body,
    delayMs: w.delayMs,
    timeoutMs: w.timeoutMs,
    retries: w.retries,
    retryDelayMs: w.retryDelayMs,
    async: w.async,
    trigger: w.trigger,
  };
  if (w.rabbit) out.rabbit = { ...w.rabbit, routingKey: renderString(w.rabbit.routingKey, ctx) };
  if (w.kafka) out.kafka = { ...w.kafka, key: w.kafka.key === undefined ? undefined : renderString(w.kafka.key, ctx) };
  return out;
}

/**
 * The events of an SSE chain, rendered with the response's context. The
 * template size limit holds for the chain as a whole, not per event: 10,000
 * events each inserting a large request body must not add up to gigabytes.
 * For SSE mocks (`sse` set: their default event name) each event also comes in
 * wire form; an event without placeholders is made once per mock version.
 */
function renderEvents(events: CompiledEvent[], ctx: TemplateContext, files: EngineDeps["files"], sse: { defaultEventName: string | undefined } | undefined): RenderedEvent[] {
  let budget = TEMPLATE_LIMITS.maxOutputSize;
  return events.map((e) => {
    if (sse) {
      e.fixed ??= fixedEvent(e, sse.defaultEventName);
      if (e.fixed) return e.fixed;
    }
    let data = e.source;
    if (e.templatePath) {
      // As payloadTemplatePath: the file's text, rendered, is the data.
      const fileName = renderString(e.templatePath, ctx);
      const text = files.read(ctx.namespace, fileName);
      if (text === undefined) throw new TemplateFileMissingError(fileName);
      data = renderTemplateFile(text, ctx, { maxOutputSize: budget });
    } else if (e.data && hasPlaceholders(e.data)) {
      data = renderTemplate(e.data, ctx, { maxOutputSize: budget });
    }
    // The data's text, measured against the budget, is also what the SSE wire carries: serialised once.
    let text: string | undefined;
    if (data !== e.source) {
      text = typeof data === "string" ? data : JSON.stringify(data);
      budget -= text?.length ?? 0;
      if (budget < 0) throw new TemplateError("template_too_large", `The rendered SSE events are larger than ${TEMPLATE_LIMITS.maxOutputSize} characters`);
    }
    const out: RenderedEvent = { eventName: e.eventName && renderString(e.eventName, ctx), data, delayMs: e.delayMs };
    if (e.id) out.id = renderString(e.id, ctx);
    if (e.retryMs !== undefined) out.retryMs = e.retryMs;
    if (sse) {
      const eventName = out.eventName ?? sse.defaultEventName;
      // A JSON value's text has no raw line breaks, so as text it formats exactly as the value would.
      out.wire = { eventName, text: formatSseEvent(eventName, text ?? data, out) };
    }
    return out;
  });
}

/** An SSE event without placeholders, rendered and in wire form; null when something in it is templated. */
function fixedEvent(e: CompiledEvent, defaultEventName: string | undefined): RenderedEvent | null {
  if (e.templatePath || (e.data && hasPlaceholders(e.data)) || (e.eventName && hasPlaceholders(e.eventName)) || (e.id && hasPlaceholders(e.id))) return null;
  const out: RenderedEvent = { eventName: e.eventName?.source, data: e.source, delayMs: e.delayMs };
  if (e.id) out.id = e.id.source;
  if (e.retryMs !== undefined) out.retryMs = e.retryMs;
  const eventName = out.eventName ?? defaultEventName;
  out.wire = { eventName, text: formatSseEvent(eventName, out.data, out) };
  return Object.freeze(out);
}

/** Synchronous unless the mock writes global or chain stores (those writes are awaited before rendering). */
export function renderMockResponse(mock: CompiledMock, req: EngineRequest, pathParams: Record<string, string>, deps: EngineDeps): RenderedMatch | Promise<RenderedMatch> {
  const ctx: TemplateContext = {
    request: req,
    pathParams,
    namespace: req.namespace,
    chainId: mock.def.chainId,
    mockStore: {},
    stores: deps.stores,
    clock: deps.clock,
    random: deps.random,
  };
  if (mock.mStore) ctx.mockStore = { ...(renderTemplate(mock.mStore, ctx) as Record<string, unknown>) };
  for (const [key, t] of mock.extract.mStore) ctx.mockStore[key] = renderTemplate(t, ctx);
  const chainWrites = mock.def.chainId ? mock.extract.cStore : [];
  if (mock.extract.gStore.length === 0 && chainWrites.length === 0) return renderPicked(mock, req, ctx, deps);
  return (async () => {
    for (const [key, t] of mock.extract.gStore) await deps.stores.setGlobal(req.namespace, key, renderTemplate(t, ctx));
    for (const [key, t] of chainWrites) await deps.stores.setChain(req.namespace, mock.def.chainId!, key, renderTemplate(t, ctx));
    return renderPicked(mock, req, ctx, deps);
  })();
}

function renderPicked(mock: CompiledMock, req: EngineRequest, ctx: TemplateContext, deps: EngineDeps): RenderedMatch {
  const picked = pickResponse(mock, deps);
  let body: unknown;
  let text: string | undefined;
  if (picked.payloadTemplatePath) {
    const fileName = renderString(picked.payloadTemplatePath, ctx);
    const text = deps.files.read(req.namespace, fileName);
    if (text === undefined) throw new TemplateFileMissingError(fileName);
    body = renderTemplateFile(text, ctx);
  } else if (picked.decodedText !== undefined) {
    body = picked.decodedText;
  } else if (picked.payload !== undefined) {
    if (!hasPlaceholders(picked.payload)) body = picked.source.payload;
    else {
      // An HTTP answer only needs the JSON text (other protocols post-process the value: SOAP wraps it, GraphQL composes it).
      const jsonText = mock.protocol === "http" ? (picked.jsonText ??= compileJsonText(picked.payload) ?? null) : null;
      if (jsonText) text = renderJsonText(jsonText, ctx);
      else body = renderTemplate(picked.payload, ctx);
    }
  }
  const headers: Record<string, string[]> = {};
  for (const [name, values] of picked.headers) headers[name] = values.map((v) => renderString(v, ctx));
  const response: EngineResponse = text !== undefined ? new TextBodyResponse(picked.statusCode, headers, text, picked.delayMs) : { status: picked.statusCode, headers, body, delayMs: picked.delayMs };
  if (body !== undefined && body === picked.source.payload) response.wire = picked.wire ??= { of: body, bytes: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)) };
  if (picked.graphqlErrors) response.graphqlErrors = renderTemplate(picked.graphqlErrors, ctx) as unknown[];
  if (picked.soapFault) response.soapFault = picked.soapFault;
  if (picked.mcpIsError) response.mcpIsError = true;
  const { error, errorDetails, streamDelayMs } = picked.source;
  if (error !== undefined || errorDetails !== undefined || streamDelayMs !== undefined) response.grpc = { error, errorDetails, streamDelayMs };

  const webhooks: RenderedWebhook[] = [];
  const webhookErrors: RenderedMatch["webhookErrors"] = [];
  // `trigger` is judged on the status the answer carries, which only the wire adapter knows
  // (a proxy's upstream, an S3 operation's outcome, a composed GraphQL answer): every webhook
  // is rendered here and the serving core (server/serving/matched-webhooks.ts) judges them.
  mock.webhooks.forEach((w, index) => {
    try {
      webhooks.push(renderWebhook(w, ctx));
    } catch (err) {
      webhookErrors.push({ index, error: err instanceof Error ? err.message : String(err) });
    }
  });
  if (picked.events) {
    response.events = renderEvents(picked.events, ctx, deps.files, mock.protocol === "sse" ? { defaultEventName: mock.def.sse?.eventName } : undefined);
    response.chain = picked.chain;
  }
  return { response, webhooks, webhookErrors };
}
