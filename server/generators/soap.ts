// WSDL 1.1 → SOAP mocks. One mock per operation and address: it matches the
// Body's first element (document style: the input part's element; RPC: the
// operation's name) and the soapAction, at the path of the port's address,
// and answers a sample of the output message built from the inline XSD
// (server/generators/xsd-sample.ts). The payload is an object, so the stub
// wraps it in the caller's envelope: the SOAP 1.1 and 1.2 ports of one
// service share one mock. Each declared fault is a second mock, chosen with
// `Prefer: fault=<name>` as OpenAPI responses are with `Prefer: code=`.
// Rules: docs/decisions.md, "Generators".
import type { MockInput } from "@/server/contracts/mock";
import { mockId, slug, uniqueIds } from "./ids";
import { GeneratorInputError } from "./input-error";
import { PREFER_HEADER, preferPattern } from "./openapi";
import type { GeneratedMock, GeneratorOptions, GeneratorResult, GeneratorWarning } from "./types";
import { readWsdl, type Message, type WsdlOperation } from "./wsdl";
import { indexSchemas, sampler, type Sampler } from "./xsd-sample";

/** The Body's first element a call of this operation carries; undefined when the input has no body part. */
export function requestElement(op: WsdlOperation): string | undefined {
  if (op.style === "rpc") return op.name;
  const first = op.input.parts[0];
  return first ? (first.element?.name ?? first.name) : undefined;
}

/** The Body's content for a message: document style, one element per part; RPC, a wrapper `<op>Response` holding the parts. */
export function bodyOf(message: Message, op: WsdlOperation, xsd: Sampler, wrapper: string): Record<string, unknown> {
  if (op.style === "rpc") {
    const inner: Record<string, unknown> = message.namespace ? { "@xmlns:ns": message.namespace } : {};
    for (const p of message.parts) inner[p.name] = p.type ? xsd.ofType(p.type, p.name, "") : p.element ? (xsd.element(p.element, "")?.[p.element.name] ?? "") : "";
    return { [message.namespace ? `ns:${wrapper}` : wrapper]: inner };
  }
  const out: Record<string, unknown> = {};
  for (const p of message.parts) {
    if (p.element) Object.assign(out, xsd.element(p.element, "") ?? { [p.element.name]: "" });
    else if (p.type) out[p.name] = xsd.ofType(p.type, p.name, "");
  }
  return out;
}

export async function soapToMocks(document: unknown, options: GeneratorOptions = {}): Promise<GeneratorResult> {
  if (typeof document !== "string") throw new GeneratorInputError("a WSDL is XML: give its text (or a url), not a JSON value");
  const wsdl = readWsdl(document);
  const warnings: GeneratorWarning[] = [...wsdl.warnings];
  const xsd = sampler(indexSchemas(wsdl.schemas));
  const prefix = options.idPrefix ?? wsdl.name ?? wsdl.operations[0].service;
  const common = {
    ...(options.pathPrefix ? { pathPrefix: options.pathPrefix } : {}),
    ...(options.serverName ? { serverName: options.serverName } : {}),
    ...(options.tags?.length ? { tags: options.tags } : {}),
    ...(options.folderId !== undefined ? { folderId: options.folderId } : {}),
  };
  const mocks: GeneratedMock[] = [];
  // One mock per (path, element, action): a service's SOAP 1.1 and 1.2 ports answer the same calls.
  const seen = new Map<string, { versions: string[]; generated: GeneratedMock[] }>();
  for (const op of wsdl.operations) {
    const method = requestElement(op);
    if (!method && !op.action) {
      warnings.push({ pointer: op.pointer, message: "the operation has neither a body element nor a soapAction, so no call can be told apart: skipped" });
      continue;
    }
    const key = JSON.stringify([op.path ?? "", method ?? "", op.action ?? ""]);
    const twin = seen.get(key);
    if (twin) {
      if (!twin.versions.includes(op.version)) twin.versions.push(op.version);
      for (const g of twin.generated) g.summary = g.summary.replace(/\(SOAP [^)]*\)/, `(SOAP ${twin.versions.join(", ")})`);
      continue;
    }
    if (op.use === "encoded") warnings.push({ pointer: op.pointer, message: "use=\"encoded\" (SOAP encoding): the answer is literal XML, without xsi:type attributes" });
    const soap = { service: op.service, ...(method ? { method } : {}), ...(op.action ? { action: op.action } : {}), ...(op.path ? { path: op.path } : {}) };
    // "library-getbook", not "library-library-getbook", when the prefix is the service's name.
    const service = slug(op.service) === slug(prefix) ? undefined : op.service;
    const id = mockId(prefix, service, op.name);
    const payload = op.output ? bodyOf(op.output, op, xsd, `${op.name}Response`) : undefined;
    const answer = op.output ? Object.keys(payload ?? {})[0]?.replace(/^ns:/, "") ?? "an empty Body" : "202, no body (one-way)";
    const label = `${op.service}.${op.name}`;
    const main: GeneratedMock = {
      mock: { id, soap, response: op.output ? { statusCode: 200, payload } : { statusCode: 202 }, ...common } as MockInput & { id: string },
      summary: `${label} (SOAP ${op.version}) → ${answer}, default`,
    };
    const generated = [main];
    for (const fault of op.faults) {
      const detail = bodyOf(fault.message, { ...op, style: "document" }, xsd, fault.name);
      generated.push({
        mock: {
          id: mockId(prefix, service, op.name, "fault", fault.name),
          soap: { ...soap, header: [{ path: PREFER_HEADER, assertAction: "matches", value: preferPattern("fault", fault.name) }] },
          response: { soapFault: { faultCode: "Server", faultString: fault.name, ...(Object.keys(detail).length ? { detail } : {}) } },
          // The chosen fault wins over the operation's default answer.
          priority: 1,
          ...common,
        } as MockInput & { id: string },
        summary: `${label} (SOAP ${op.version}) → fault ${fault.name} (Prefer: fault=${fault.name})`,
      });
    }
    seen.set(key, { versions: [op.version], generated });
    mocks.push(...generated);
  }
  for (const name of xsd.missing) warnings.push({ pointer: "/definitions/types", message: `${name} is not defined in this document: its elements answer empty` });
  uniqueIds(mocks);
  return { mocks, warnings };
}
