// SOAP for the API tester's helpers, without I/O: the operations of a WSDL
// with a sample request envelope each (the generators' one WSDL reader and
// XSD sampler), an envelope built from an operation and the caller's values,
// and an answer read back into JSON with a SOAP Fault as data. Placeholders
// in samples are "?", as SoapUI writes them, not the mocks' `$.fake.*`.
import { bodyOf } from "@/server/generators/soap";
import { readWsdl, type Wsdl, type WsdlOperation } from "@/server/generators/wsdl";
import { indexSchemas, sampler } from "@/server/generators/xsd-sample";
import { localName, parseSoapEnvelope, soapContentType, soapPayloadText, type SoapVersion } from "@/server/engine/protocols/soap";

export { soapContentType, type SoapVersion };

export interface SoapOperationView {
  id: string;
  service: string;
  port: string;
  name: string;
  soapVersion: SoapVersion;
  style: "document" | "rpc";
  action?: string;
  address?: string;
  sampleEnvelope: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** `$.fake.Email` and kin are mock templates; a request sample shows "?" where a value goes. */
function placeholders(value: unknown): unknown {
  if (typeof value === "string") return value.startsWith("$.fake.") ? "?" : value;
  if (Array.isArray(value)) return value.map(placeholders);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k.startsWith("@") ? v : placeholders(v)]));
  return value;
}

/** Replaces, anywhere in the body, the content of elements whose local name is a key of `params`. */
function withParams(value: unknown, params: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => withParams(v, params));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k.startsWith("@") || k === "#text") out[k] = v;
    else if (Object.hasOwn(params, localName(k))) {
      const given = params[localName(k)];
      out[k] = isObject(given) || Array.isArray(given) ? given : String(given ?? "");
    } else out[k] = withParams(v, params);
  }
  return out;
}

function requestBody(wsdl: Wsdl, op: WsdlOperation): Record<string, unknown> {
  const xsd = sampler(indexSchemas(wsdl.schemas));
  return placeholders(bodyOf(op.input, op, xsd, op.name)) as Record<string, unknown>;
}

/** The envelope an operation's call carries: the sample, with `params` filled in. */
export function operationEnvelope(wsdl: Wsdl, op: WsdlOperation, params: Record<string, unknown> = {}): string {
  return soapPayloadText(withParams(requestBody(wsdl, op), params), op.version);
}

export const operationId = (op: Pick<WsdlOperation, "service" | "port" | "name">) => `${op.service}.${op.port}.${op.name}`;

export function listSoapOperations(text: string) {
  const wsdl = readWsdl(text);
  const operations: SoapOperationView[] = wsdl.operations.map((op) => ({
    id: operationId(op),
    service: op.service,
    port: op.port,
    name: op.name,
    soapVersion: op.version,
    style: op.style,
    ...(op.action ? { action: op.action } : {}),
    ...(op.address ? { address: op.address } : {}),
    sampleEnvelope: operationEnvelope(wsdl, op),
  }));
  const services = new Map<string, Map<string, { name: string; soapVersion: SoapVersion; address?: string; operations: string[] }>>();
  for (const op of wsdl.operations) {
    const ports = services.get(op.service) ?? new Map();
    services.set(op.service, ports);
    const port = ports.get(op.port) ?? { name: op.port, soapVersion: op.version, ...(op.address ? { address: op.address } : {}), operations: [] };
    ports.set(op.port, port);
    port.operations.push(op.name);
  }
  return {
    ...(wsdl.name ? { name: wsdl.name } : {}),
    services: [...services].map(([name, ports]) => ({ name, ports: [...ports.values()] })),
    operations,
    warnings: wsdl.warnings.map((w) => ({ pointer: w.pointer ?? "", message: w.message })),
    wsdl,
  };
}

/**
 * The operation a caller named: its id (service.port.name), or its name when
 * that is unique — except that a name shared only by a service's SOAP 1.1 and
 * 1.2 ports picks the port of `version` (else the first).
 */
export function findOperation(wsdl: Wsdl, name: string, version?: SoapVersion): WsdlOperation | { error: string } {
  const byId = wsdl.operations.find((op) => operationId(op) === name);
  if (byId) return byId;
  const named = wsdl.operations.filter((op) => op.name === name);
  if (named.length === 0) return { error: `the WSDL has no operation "${name}" (it has ${[...new Set(wsdl.operations.map((o) => o.name))].join(", ")})` };
  if (new Set(named.map((o) => o.service)).size > 1) return { error: `"${name}" is in several services; name it as ${named.map(operationId).join(" or ")}` };
  return named.find((o) => o.version === version) ?? named[0];
}

export interface SoapAnswer {
  parsed?: unknown;
  fault?: { code: string; string: string; actor?: string; detail?: unknown };
}

const text = (v: unknown): string => {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (isObject(v)) return text(v["#text"] ?? v.Value ?? v.Text ?? "");
  if (Array.isArray(v)) return text(v[0]);
  return String(v);
};

/** An answer's Body as JSON, and its Fault (1.1 faultcode/faultstring, 1.2 Code/Reason) when it is one; nothing when it is not an envelope. */
export function readSoapAnswer(body: string, version: SoapVersion): SoapAnswer {
  if (!body.trim()) return {};
  const read = parseSoapEnvelope(body, version);
  if (!read.ok) return {};
  const { operation, body: content } = read.call;
  const parsed = { [operation]: content };
  if (operation !== "Fault" || !isObject(content)) return { parsed };
  const detail = content.detail ?? content.Detail;
  const actor = content.faultactor ?? content.Role;
  const code = content.faultcode !== undefined ? text(content.faultcode) : text(isObject(content.Code) ? content.Code.Value : content.Code);
  const subcode = isObject(content.Code) && isObject(content.Code.Subcode) ? text(content.Code.Subcode.Value) : "";
  return {
    parsed,
    fault: {
      code: subcode ? `${code}/${subcode}` : code,
      string: content.faultstring !== undefined ? text(content.faultstring) : text(isObject(content.Reason) ? content.Reason.Text : content.Reason),
      ...(actor !== undefined ? { actor: text(actor) } : {}),
      ...(detail !== undefined && detail !== "" ? { detail } : {}),
    },
  };
}
