// SOAP on the stub path: a POST that says it is SOAP (SOAPAction header, or
// the SOAP 1.2 media type application/soap+xml), or an XML POST whose body is
// an envelope at a path where SOAP mocks live. The operation (the Body's
// first element) selects the mocks, `soap.action` is checked against the
// call's action, and the answer is the mock's envelope. Unmatched calls and
// bad envelopes are answered with SOAP Faults (docs/decisions.md, "SOAP").
import type { EngineResult } from "@/server/engine/engine";
import type { NearMiss } from "@/server/engine/near-miss";
import { faultEnvelope, looksLikeEnvelope, parseSoapEnvelope, SOAP_ACTION_HEADER, soapContentType, soapPayloadText, soapSignals, xmlEscape, type SoapVersion } from "@/server/engine/protocols/soap";
import type { EngineRequest } from "@/server/engine/types";
import { answered, recordMiss, serve } from "@/server/serving/serve";
import { httpCouldAnswer, servesPath } from "./route-presence";
import { engineOutput, type StubAdapter, type StubContext, type StubOutput } from "./stub-context";
import { forwardToProxy } from "./stub-proxy";

function fault(ctx: StubContext, version: SoapVersion, status: number, side: "Client" | "Server", message: string, code: string, nearest: NearMiss[] = []): StubOutput {
  const nearestXml =
    nearest.length === 0
      ? ""
      : `<polymock:nearest>${nearest
          .map((n) => `<polymock:mock id="${xmlEscape(n.id)}" distance="${n.distance.toFixed(2)}">${xmlEscape(n.reasons.map((r) => r.message).join("; "))}</polymock:mock>`)
          .join("")}</polymock:nearest>`;
  const body = faultEnvelope({ version, side, message, detail: { code, requestId: ctx.requestId, namespace: ctx.namespace }, detailXml: nearestXml });
  return { status, headers: { "Content-Type": soapContentType(version), "X-Request-Id": ctx.requestId }, body, delayMs: 0 };
}

async function serveSoap(ctx: StubContext): Promise<StubOutput | null> {
  if (!isSoapCall(ctx)) return null;
  const signals = soapSignals(ctx.input.headers);
  const served = servesPath(ctx.index.indexes.soap, ctx.path);
  // No SOAP mock lives here: HTTP mocks get the request, unless it is plainly
  // SOAP and nothing else can answer it — then the caller gets a SOAP fault.
  if (!served && (!signals.declared || httpCouldAnswer(ctx))) return null;

  const parsed = parseSoapEnvelope(ctx.text, signals.version);
  if (!parsed.ok) {
    if (httpCouldAnswer(ctx)) return null;
    return fault(ctx, signals.version, parsed.status, "Client", parsed.message, parsed.status === 413 ? "payload_too_large" : "validation");
  }
  const { call } = parsed;
  // Conditions and $.reqHeader see the action under one name, quotes removed, for both versions.
  const headers: Record<string, string[]> = { ...ctx.input.headers };
  if (signals.action !== undefined) headers[SOAP_ACTION_HEADER] = [signals.action];
  else delete headers[SOAP_ACTION_HEADER];
  const req: EngineRequest = { namespace: ctx.namespace, method: call.operation, path: ctx.path, headers, query: ctx.query, body: call.body, rawBody: ctx.text };
  const result: EngineResult = served ? await serve("soap", ctx, req) : { matched: false, nearest: [] };

  if (!result.matched) {
    if (httpCouldAnswer(ctx)) return null;
    recordMiss(ctx, { protocol: "soap", method: "POST", path: `${ctx.path} ${call.operation}`, body: ctx.text });
    const action = signals.action ? ` (action '${signals.action}')` : "";
    return fault(ctx, call.version, 500, "Server", `No mock matches SOAP operation '${call.operation}'${action} at ${ctx.path} in namespace '${ctx.namespace}'`, "not_found", result.nearest);
  }

  const { response } = result;
  const logged = { method: "POST", body: ctx.text };
  if (result.proxy) {
    const out = await forwardToProxy({ proxy: result.proxy, mock: result.mock, method: "POST", path: ctx.path, search: ctx.search, headers: ctx.input.headers, body: ctx.bytes, requestId: ctx.requestId });
    return answered(ctx, result, out.status, { ...out, delayMs: response.delayMs }, logged);
  }
  if (response.soapFault) {
    // The mock's own fault, in the caller's SOAP version; the mock's headers still apply, its type does not.
    const fault = response.soapFault;
    const out = engineOutput({ ...response, status: fault.status, body: fault.envelopes[call.version], wire: undefined }, ctx.requestId);
    for (const name in out.headers) if (name.toLowerCase() === "content-type") delete out.headers[name];
    out.headers["Content-Type"] = soapContentType(call.version);
    return answered(ctx, result, fault.status, out, logged);
  }
  const out = engineOutput({ ...response, body: soapPayloadText(response.body, call.version) }, ctx.requestId, soapContentType(call.version));
  return answered(ctx, result, response.status, out, logged);
}

export const soapAdapter: StubAdapter = { protocol: "soap", claims: isSoapCall, serve: serveSoap };

/** A POST that says it is SOAP (SOAPAction, SOAP 1.2 content type) or carries an envelope. */
function isSoapCall(ctx: StubContext): boolean {
  if (ctx.input.method.toUpperCase() !== "POST") return false;
  return soapSignals(ctx.input.headers).declared || looksLikeEnvelope(ctx.input.headers["content-type"]?.[0] ?? "", ctx.text);
}
