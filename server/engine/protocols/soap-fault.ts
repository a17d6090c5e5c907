// `response.soapFault` of a SOAP mock: the Fault envelope it answers, built
// once per mock version for both SOAP versions, because the version is the
// request's (its envelope namespace) and only known per call.
import { XMLBuilder, XMLValidator } from "fast-xml-parser";
import type { z } from "zod";
import type { SoapFault } from "@/server/contracts/mock";
import { localName, SOAP11_NS, SOAP12_NS, xmlEscape, type SoapVersion } from "./soap";

export const SOAP_FAULT_DEFAULTS = { faultCode: "Server", faultString: "Fault", httpStatus: 500 };

export interface CompiledSoapFault {
  status: number;
  envelopes: Record<SoapVersion, string>;
}

type FaultInput = z.infer<typeof SoapFault>;

/** The four codes both versions share, each under its 1.1 and 1.2 name. */
const STANDARD_CODES: Record<string, { v11: string; v12: string }> = {
  client: { v11: "Client", v12: "Sender" },
  sender: { v11: "Client", v12: "Sender" },
  server: { v11: "Server", v12: "Receiver" },
  receiver: { v11: "Server", v12: "Receiver" },
  versionmismatch: { v11: "VersionMismatch", v12: "VersionMismatch" },
  mustunderstand: { v11: "MustUnderstand", v12: "MustUnderstand" },
  dataencodingunknown: { v11: "Client", v12: "DataEncodingUnknown" },
};

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@", textNodeName: "#text", suppressEmptyNode: true });

/** A detail as XML: a string that is well-formed XML content goes in as written, other text escaped; an object is built like a payload. */
function detailXml(detail: unknown): string {
  if (detail === undefined || detail === null) return "";
  if (typeof detail === "string") return detail.includes("<") && XMLValidator.validate(`<d>${detail}</d>`) === true ? detail : xmlEscape(detail);
  if (typeof detail === "object") return builder.build(detail) as string;
  return xmlEscape(String(detail));
}

function envelope(ns: string, fault: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><env:Envelope xmlns:env="${ns}"><env:Body>${fault}</env:Body></env:Envelope>`;
}

/**
 * SOAP 1.1: faultcode/faultstring/faultactor/detail. SOAP 1.2 allows only its
 * standard codes in Code/Value, so a custom code goes in a Subcode under
 * env:Receiver; Reason/Text, Role and Detail carry the rest.
 */
export function compileSoapFault(f: FaultInput): CompiledSoapFault {
  const code = f.faultCode ?? SOAP_FAULT_DEFAULTS.faultCode;
  const standard = STANDARD_CODES[localName(code).toLowerCase()];
  const text = xmlEscape(f.faultString ?? SOAP_FAULT_DEFAULTS.faultString);
  const actor = f.faultActor === undefined ? undefined : xmlEscape(f.faultActor);
  const detail = detailXml(f.detail);

  const code11 = standard ? `env:${standard.v11}` : xmlEscape(code);
  const v11 =
    `<env:Fault><faultcode>${code11}</faultcode><faultstring>${text}</faultstring>` +
    (actor !== undefined ? `<faultactor>${actor}</faultactor>` : "") +
    (detail ? `<detail>${detail}</detail>` : "") +
    `</env:Fault>`;

  const code12 = standard ? `<env:Value>env:${standard.v12}</env:Value>` : `<env:Value>env:Receiver</env:Value><env:Subcode><env:Value>${xmlEscape(code)}</env:Value></env:Subcode>`;
  const v12 =
    `<env:Fault><env:Code>${code12}</env:Code><env:Reason><env:Text xml:lang="en">${text}</env:Text></env:Reason>` +
    (actor !== undefined ? `<env:Role>${actor}</env:Role>` : "") +
    (detail ? `<env:Detail>${detail}</env:Detail>` : "") +
    `</env:Fault>`;

  return { status: f.httpStatus ?? SOAP_FAULT_DEFAULTS.httpStatus, envelopes: { "1.1": envelope(SOAP11_NS, v11), "1.2": envelope(SOAP12_NS, v12) } };
}
