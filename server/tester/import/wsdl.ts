// WSDL 1.1 → an API tester collection of SOAP requests, read by the
// generators' one WSDL reader (server/generators/wsdl.ts) and sampled from
// its inline XSD (xsd-sample.ts), as SoapUI and Postman do: a folder per
// service port ("Library · LibrarySoap12 (SOAP 1.2)"), a request per
// operation holding a sample envelope of the port's SOAP version, its
// SOAPAction, and the port's address behind a `{{baseUrl}}` variable (the
// first address's origin) so one variable moves the whole collection.
import { XMLBuilder } from "fast-xml-parser";
import { SOAP11_NS, SOAP12_NS } from "@/server/engine/protocols/soap";
import { GeneratorInputError } from "@/server/generators/input-error";
import { bodyOf } from "@/server/generators/soap";
import { readWsdl, type WsdlOperation } from "@/server/generators/wsdl";
import { indexSchemas, sampler } from "@/server/generators/xsd-sample";
import { collectionDocument, folderItem, requestItem, variable, withDynamicVariables, type ConvertedCollection, type ItemInput } from "./common";

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@", textNodeName: "#text", format: true, indentBy: "  ", suppressEmptyNode: false });

/** A sample envelope: the Body's content from the input message, indented, placeholders as dynamic variables. */
export function sampleEnvelope(content: Record<string, unknown>, version: "1.1" | "1.2"): string {
  const ns = version === "1.2" ? SOAP12_NS : SOAP11_NS;
  const inner = (builder.build(withDynamicVariables(content)) as string).replace(/\u0000num:/g, "").trimEnd();
  const indented = inner
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
  return `<?xml version="1.0" encoding="utf-8"?>\n<soap:Envelope xmlns:soap="${ns}">\n  <soap:Header/>\n  <soap:Body>\n${indented}\n  </soap:Body>\n</soap:Envelope>`;
}

function originOf(address: string | undefined): string | undefined {
  if (!address) return undefined;
  try {
    const url = new URL(address);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export function wsdlToCollection(document: unknown): ConvertedCollection {
  if (typeof document !== "string") throw new GeneratorInputError("a WSDL is XML: give its text, not a JSON value");
  const wsdl = readWsdl(document);
  const warnings = [...wsdl.warnings];
  const xsd = sampler(indexSchemas(wsdl.schemas));
  const base = wsdl.operations.map((o) => originOf(o.address)).find(Boolean);
  if (!base) warnings.push({ message: "no port has an http(s) soap:address: set the baseUrl variable before sending" });
  const urlOf = (op: WsdlOperation) => {
    if (op.address && base && op.address.startsWith(base)) return `{{baseUrl}}${op.address.slice(base.length)}`;
    return op.address ?? "{{baseUrl}}";
  };
  const ports = new Map<string, ItemInput[]>();
  for (const op of wsdl.operations) {
    if (op.use === "encoded") warnings.push({ pointer: op.pointer, message: "use=\"encoded\" (SOAP encoding): the sample is literal XML, without xsi:type attributes" });
    const content = bodyOf(op.input, op, xsd, op.name);
    const key = `${op.service} · ${op.port} (SOAP ${op.version})`;
    const list = ports.get(key) ?? ports.set(key, []).get(key)!;
    list.push(
      requestItem(op.name, {
        kind: "soap",
        method: "POST",
        url: urlOf(op),
        body: { mode: "raw", language: "xml", raw: sampleEnvelope(content, op.version) },
        soap: { ...(op.action ? { action: op.action } : {}), version: op.version },
      }),
    );
  }
  for (const name of xsd.missing) warnings.push({ pointer: "/definitions/types", message: `${name} is not defined in this document: its elements are empty in the samples` });
  const items = ports.size === 1 ? [...ports.values()][0] : [...ports].map(([name, list]) => folderItem(name, list));
  return { document: collectionDocument({ name: wsdl.name ?? wsdl.operations[0].service, variables: [variable("baseUrl", base ?? "")], items }), warnings };
}
