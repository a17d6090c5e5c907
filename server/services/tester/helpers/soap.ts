// SOAP helpers: the operations of a WSDL (text, or fetched under the outbound
// policy) with a sample envelope each, and proxy/soap, which sends an envelope
// — the caller's, or one built from a WSDL operation and values — and reads
// the answer back, a SOAP Fault included, as data rather than as an error.
import type { ProxySoapInput, SoapOperationsInput } from "@/server/contracts/tester-helpers";
import { errors } from "@/server/errors";
import { fetchDocument, refuse } from "@/server/lib/fetch-document";
import type { Wsdl } from "@/server/generators/wsdl";
import { findOperation, listSoapOperations, operationEnvelope, readSoapAnswer, soapContentType, type SoapVersion } from "@/server/tester/soap-envelope";
import { bodyText, headerEntries, sendOutbound, unreadable } from "./outbound";

const MAX_WSDL_BYTES = 10 * 1024 * 1024;

/** WSDL text as given, or fetched when it is a URL. */
async function wsdlText(textOrUrl: string, field: string): Promise<string> {
  if (/^https?:\/\//i.test(textOrUrl.trim())) return (await fetchDocument(textOrUrl.trim(), { field, maxBytes: MAX_WSDL_BYTES })).text;
  return textOrUrl;
}

function readOperations(text: string, field: string) {
  try {
    return listSoapOperations(text);
  } catch (err) {
    throw unreadable(err, field);
  }
}

export async function soapOperations(input: SoapOperationsInput) {
  const field = input.url ? "url" : "wsdl";
  const text = input.url ? (await fetchDocument(input.url, { field, maxBytes: MAX_WSDL_BYTES })).text : input.wsdl!;
  const { wsdl: _, ...listed } = readOperations(text, field);
  return listed;
}

interface Planned {
  url: string;
  version: SoapVersion;
  action?: string;
  envelope: string;
}

async function plan(input: ProxySoapInput): Promise<Planned> {
  if (input.envelope) return { url: input.url!, version: input.soapVersion ?? "1.1", action: input.action, envelope: input.envelope };
  const { wsdl }: { wsdl: Wsdl } = readOperations(await wsdlText(input.wsdl!, "wsdl"), "wsdl");
  const op = findOperation(wsdl, input.operation!, input.soapVersion);
  if ("error" in op) throw refuse("operation", op.error);
  const url = input.url ?? op.address;
  if (!url) throw errors.validation("The WSDL port has no soap:address: give url", [{ location: "body", field: "url", message: "required: the operation's port has no address" }]);
  return { url, version: input.soapVersion ?? op.version, action: input.action ?? op.action, envelope: operationEnvelope(wsdl, op, input.params) };
}

/** SOAP 1.1 names the action in a SOAPAction header; 1.2 in the content type's action parameter. */
function soapHeaders(p: Planned) {
  if (p.version === "1.2") return [{ key: "Content-Type", value: `${soapContentType("1.2")}${p.action ? `; action="${p.action}"` : ""}` }];
  return [
    { key: "Content-Type", value: soapContentType("1.1") },
    { key: "SOAPAction", value: `"${p.action ?? ""}"` },
  ];
}

export async function proxySoap(input: ProxySoapInput, signal?: AbortSignal) {
  const p = await plan(input);
  const given = headerEntries(input.headers);
  const own = soapHeaders(p).filter((h) => !given.some((g) => g.key.toLowerCase() === h.key.toLowerCase()));
  const res = await sendOutbound({ method: "POST", url: p.url, headers: [...own, ...given], body: p.envelope, timeoutMs: input.timeout, signal }, "url");
  const body = bodyText(res);
  const answer = readSoapAnswer(body, p.version);
  return {
    status: res.status,
    headers: res.headers,
    soapVersion: p.version,
    request: { url: p.url, ...(p.action !== undefined ? { action: p.action } : {}), envelope: p.envelope },
    body,
    ...answer,
    timings: res.timings,
  };
}
