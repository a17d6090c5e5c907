// SOAP mocks: one mock answers one operation (the Body's first element,
// `soap.method`, and/or the SOAP action, `soap.action`) at a SOAP path.
// The envelope is parsed with fast-xml-parser into JSON (namespace prefixes
// dropped, attributes as "@name", text beside attributes as "#text"), and the
// Body's first element's content is what conditions and `$.req` see
// (docs/decisions.md, "SOAP").
import { XMLBuilder, XMLParser, XMLValidator } from "fast-xml-parser";
import type { Condition } from "@/server/contracts/mock";
import { joinRoute } from "../route";
import type { Placer } from "./placement";

export type SoapVersion = "1.1" | "1.2";

export const SOAP11_NS = "http://schemas.xmlsoap.org/soap/envelope/";
export const SOAP12_NS = "http://www.w3.org/2003/05/soap-envelope";
/** Larger envelopes are refused with a Client fault (413) before parsing. */
export const SOAP_MAX_BYTES = 4 * 1024 * 1024;
/** Element nesting accepted in an envelope. */
export const SOAP_MAX_DEPTH = 100;
/**
 * The header conditions see the call's action under this name (quotes
 * removed; SOAP 1.2's `action` content-type parameter too), so `soap.action`
 * is matched like any header condition and `$.reqHeader.soapaction[0]` reads it.
 */
export const SOAP_ACTION_HEADER = "soapaction";

/** "tns:GetUser" and "GetUser" name one operation: prefixes are not on the parsed side either. */
export function localName(name: string): string {
  const colon = name.lastIndexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
}

export const placeSoap: Placer = (def) => {
  const s = def.soap;
  if (!s) return null;
  const header: Condition[] = [...(s.action ? [{ path: SOAP_ACTION_HEADER, assertAction: "equals" as const, value: s.action }] : []), ...(s.header ?? [])];
  return {
    // Without a path the mock answers at any path (below pathPrefix).
    route: joinRoute(def.pathPrefix, s.path || "*"),
    selector: s.method ? localName(s.method) : null,
    conditions: { conditions: s.conditions, header, sortArray: s.sortArray },
  };
};

/** The operation and action a mock answers, as one text ("GetUser", "GetUser urn:GetUser", "* urn:GetUser"); null for any call. */
export function soapEndpointMethod(s: { method?: string; action?: string }): string | null {
  if (!s.method && !s.action) return null;
  return [s.method ? localName(s.method) : "*", s.action].filter(Boolean).join(" ");
}

/** `"urn:GetUser"` → `urn:GetUser`. */
function unquote(v: string): string {
  const t = v.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
}

/** The `action` parameter of a SOAP 1.2 content type. */
function actionParameter(contentType: string): string | undefined {
  const m = /;\s*action\s*=\s*("[^"]*"|[^;\s]*)/i.exec(contentType);
  return m ? unquote(m[1]) : undefined;
}

export interface SoapSignals {
  /** The request says it is SOAP (SOAPAction header, or the SOAP 1.2 media type). */
  declared: boolean;
  /** SOAPAction, or 1.2's action parameter; undefined when absent or empty. */
  action: string | undefined;
  version: SoapVersion;
}

/** What the headers say, without reading the body. */
export function soapSignals(headers: Record<string, string[]>): SoapSignals {
  const contentType = headers["content-type"]?.[0] ?? "";
  const soap12 = contentType.toLowerCase().includes("application/soap+xml");
  const header = headers[SOAP_ACTION_HEADER]?.[0];
  const action = (header !== undefined ? unquote(header) : undefined) || (soap12 ? actionParameter(contentType) : undefined) || undefined;
  return { declared: header !== undefined || soap12, action, version: soap12 ? "1.2" : "1.1" };
}

/** A text/xml (or other XML) POST whose text starts like a SOAP envelope: SOAP without a SOAPAction header. */
export function looksLikeEnvelope(contentType: string, text: string): boolean {
  if (!contentType.toLowerCase().includes("xml")) return false;
  return /<([A-Za-z_][\w.-]*:)?Envelope[\s>/]/.test(text.slice(0, 4096));
}

export interface SoapCall {
  version: SoapVersion;
  /** Local name of the Body's first element. */
  operation: string;
  /** That element's content: an object (children, "@attr", "#text"), a string, or {} when empty. */
  body: unknown;
}

export type SoapParse = { ok: true; call: SoapCall } | { ok: false; status: number; message: string };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  textNodeName: "#text",
  removeNSPrefix: true,
  // Values stay text: "007" keeps its zeros; comparisons treat "5" and 5 alike anyway.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // Only the predefined entities and character references: DTDs are refused before parsing.
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: SOAP_MAX_DEPTH,
});

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const isElementKey = (k: string) => !k.startsWith("@") && k !== "#text";

/**
 * Reads a SOAP envelope. Refuses (as the caller's fault) a DTD (SOAP forbids
 * them, and it shuts out entity expansion and external entities), malformed
 * XML, deep nesting, a document that is not an Envelope, or an empty Body.
 */
export function parseSoapEnvelope(text: string, hint: SoapVersion): SoapParse {
  if (Buffer.byteLength(text) > SOAP_MAX_BYTES) return { ok: false, status: 413, message: `The envelope is larger than ${SOAP_MAX_BYTES} bytes` };
  if (/<!DOCTYPE/i.test(text)) return { ok: false, status: 400, message: "A SOAP message must not contain a document type declaration" };
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { ok: false, status: 400, message: `Malformed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})` };
  let doc: unknown;
  try {
    doc = parser.parse(text);
  } catch (err) {
    return { ok: false, status: 400, message: `Malformed XML: ${err instanceof Error ? err.message : String(err)}` };
  }
  const envelope = isObject(doc) ? doc.Envelope : undefined;
  if (envelope === undefined) return { ok: false, status: 400, message: "The document is not a SOAP Envelope" };
  const body = isObject(envelope) ? envelope.Body : undefined;
  const first = isObject(body) ? Object.keys(body).find(isElementKey) : undefined;
  if (!isObject(body) || first === undefined) return { ok: false, status: 400, message: "The SOAP Body has no element" };
  let content = body[first];
  // The first element repeated: the first occurrence is the call.
  if (Array.isArray(content)) content = content[0];
  return { ok: true, call: { version: envelopeVersion(text, hint), operation: first, body: content === "" ? {} : content } };
}

/** The version the Envelope element's own namespace declaration names (prefixes are gone from the parsed form). */
function envelopeVersion(text: string, hint: SoapVersion): SoapVersion {
  const tag = /<(?:[A-Za-z_][\w.-]*:)?Envelope\b([^>]{0,4000})>/.exec(text.slice(0, 8192));
  if (tag?.[1].includes(SOAP12_NS)) return "1.2";
  if (tag?.[1].includes(SOAP11_NS)) return "1.1";
  return hint;
}

export function soapContentType(version: SoapVersion): string {
  return version === "1.2" ? "application/soap+xml; charset=utf-8" : "text/xml; charset=utf-8";
}

export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&apos;"));
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@", textNodeName: "#text", suppressEmptyNode: true });

function envelopeAround(bodyXml: string, version: SoapVersion): string {
  const ns = version === "1.2" ? SOAP12_NS : SOAP11_NS;
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}"><soap:Body>${bodyXml}</soap:Body></soap:Envelope>`;
}

/**
 * A mock's payload as the envelope to send: a string is the raw envelope,
 * sent as written; an object is built into XML ("@name" attributes, "#text"
 * text) and, unless its one key is an Envelope, wrapped in a `soap:Envelope`
 * / `soap:Body` of the request's SOAP version.
 */
export function soapPayloadText(payload: unknown, version: SoapVersion): string {
  if (payload === undefined || payload === null) return "";
  if (typeof payload === "string") return payload;
  if (!isObject(payload)) return envelopeAround(xmlEscape(String(payload)), version);
  const keys = Object.keys(payload);
  const xml = builder.build(payload) as string;
  if (keys.length === 1 && localName(keys[0]) === "Envelope") return `<?xml version="1.0" encoding="utf-8"?>${xml}`;
  return envelopeAround(xml, version);
}

export interface FaultInput {
  version: SoapVersion;
  /** Client: the caller's request is at fault (malformed, not SOAP); Server: the mock side has no answer. */
  side: "Client" | "Server";
  message: string;
  /** Child elements of the fault's detail (text values, escaped here). */
  detail: Record<string, string>;
  /** Extra raw XML inside the detail (already escaped). */
  detailXml?: string;
}

/** A SOAP Fault envelope: 1.1 faultcode/faultstring/detail, or 1.2 Code/Reason/Detail. */
export function faultEnvelope(f: FaultInput): string {
  const detail =
    `<polymock:error xmlns:polymock="urn:polymock">` +
    Object.entries(f.detail)
      .map(([k, v]) => `<polymock:${k}>${xmlEscape(v)}</polymock:${k}>`)
      .join("") +
    (f.detailXml ?? "") +
    `</polymock:error>`;
  const message = xmlEscape(f.message);
  const fault =
    f.version === "1.2"
      ? `<soap:Fault><soap:Code><soap:Value>soap:${f.side === "Client" ? "Sender" : "Receiver"}</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${message}</soap:Text></soap:Reason><soap:Detail>${detail}</soap:Detail></soap:Fault>`
      : `<soap:Fault><faultcode>soap:${f.side}</faultcode><faultstring>${message}</faultstring><detail>${detail}</detail></soap:Fault>`;
  return envelopeAround(fault, f.version);
}

/**
 * A mock for a captured miss, whose path reads "<path> <operation>" (see
 * server/transport/soap-stub.ts): the `soap` block, and a response with an
 * empty `<operation>Response` element, wrapped in the caller's SOAP version.
 */
export function soapMockOfCapture(captured: string): { soap: { path: string; method: string }; response: { statusCode: number; payload: Record<string, string> } } | null {
  const m = /^(\S+) ([^\s:]+)$/.exec(captured);
  return m ? { soap: { path: m[1], method: m[2] }, response: { statusCode: 200, payload: { [`${m[2]}Response`]: "" } } } : null;
}
