// A WSDL 1.1 document read into what a SOAP mock needs: for each SOAP port
// of each service (or each SOAP binding, when the document has no service),
// its operations with their style, action, SOAP version, address path, and
// the message parts of the input, output and faults. Nothing outside the
// document is read: a wsdl:import or an xsd:import/include with a location is
// reported, not followed, so a document cannot make the server read a file or
// fetch a URL.
import { GeneratorInputError } from "./input-error";
import type { GeneratorWarning } from "./types";
import { childOf, childrenOf, qkey, qname, readXml, type QName, type XmlDocument, type XmlElement } from "./xml-tree";
import { XSD_NS } from "./xsd-sample";

export const WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";
const WSDL2_NS = "http://www.w3.org/ns/wsdl";
export const SOAP11_BINDING_NS = "http://schemas.xmlsoap.org/wsdl/soap/";
export const SOAP12_BINDING_NS = "http://schemas.xmlsoap.org/wsdl/soap12/";
const SOAP_BINDINGS = [SOAP11_BINDING_NS, SOAP12_BINDING_NS];

export interface Part {
  name: string;
  element?: QName;
  type?: QName;
}

export interface Message {
  parts: Part[];
  /** RPC style: the wrapper element's namespace (soap:body namespace=). */
  namespace: string;
}

export interface WsdlOperation {
  service: string;
  port: string;
  version: "1.1" | "1.2";
  /** The path of the port's address (host left out); undefined when the port has none. */
  path: string | undefined;
  /** The port's soap:address location as written (the API tester's import sends to it). */
  address: string | undefined;
  name: string;
  style: "document" | "rpc";
  use: "literal" | "encoded";
  action: string | undefined;
  input: Message;
  output: Message | undefined;
  faults: { name: string; message: Message }[];
  /** Where it is, for warnings: /definitions/binding[@name='X']/operation[@name='Y']. */
  pointer: string;
}

export interface Wsdl {
  name: string | undefined;
  operations: WsdlOperation[];
  schemas: XmlElement[];
  warnings: GeneratorWarning[];
}

const at = (kind: string, name: string) => `${kind}[@name='${name}']`;

export function readWsdl(text: string): Wsdl {
  const doc = readXml(text);
  const root = doc.root;
  if (root.ns === WSDL2_NS) throw new GeneratorInputError("WSDL 2.0 is not supported (WSDL 1.1 is)", doc.where(root.at));
  if (root.ns !== WSDL_NS || root.name !== "definitions") throw new GeneratorInputError(`not a WSDL 1.1 document: the root element is <${root.name}>${root.ns ? ` in ${root.ns}` : ""}, not <wsdl:definitions>`, doc.where(root.at));
  const warnings: GeneratorWarning[] = [];
  const tns = root.attrs.targetNamespace ?? "";
  const named = (kind: string) => new Map(childrenOf(root, WSDL_NS, kind).filter((e) => e.attrs.name).map((e) => [qkey({ ns: tns, name: e.attrs.name }), e]));
  const messages = named("message");
  const portTypes = named("portType");
  const bindings = named("binding");

  for (const imp of childrenOf(root, WSDL_NS, "import")) warnings.push({ pointer: "/definitions/import", message: `wsdl:import of ${imp.attrs.location ?? imp.attrs.namespace ?? "a document"} is not followed: only what this document defines is generated` });
  const schemas = childrenOf(root, WSDL_NS, "types").flatMap((t) => childrenOf(t, XSD_NS, "schema"));
  for (const s of schemas)
    for (const inc of childrenOf(s, XSD_NS).filter((c) => ["import", "include", "redefine"].includes(c.name) && c.attrs.schemaLocation))
      warnings.push({ pointer: "/definitions/types/schema", message: `xsd:${inc.name} of ${inc.attrs.schemaLocation} is not read: its types answer empty elements` });

  const find = (map: Map<string, XmlElement>, el: XmlElement, attr: string, what: string): XmlElement => {
    const value = el.attrs[attr];
    const q = value ? qname(el, value) : undefined;
    const found = q && map.get(qkey(q));
    if (!found) throw new GeneratorInputError(`the ${what} "${value ?? ""}" that <${el.name}${el.attrs.name ? ` name="${el.attrs.name}"` : ""}> names is not defined in this document`, doc.where(el.at));
    return found;
  };

  const messageOf = (ref: XmlElement | undefined, soapBody: XmlElement | undefined): Message => {
    if (!ref) return { parts: [], namespace: "" };
    const message = find(messages, ref, "message", "message");
    const only = soapBody?.attrs.parts?.trim().split(/\s+/);
    const parts = childrenOf(message, WSDL_NS, "part")
      .filter((p) => !only || only.includes(p.attrs.name))
      .map((p): Part => ({ name: p.attrs.name ?? "", element: p.attrs.element ? qnameOrFail(doc, p, p.attrs.element) : undefined, type: p.attrs.type ? qnameOrFail(doc, p, p.attrs.type) : undefined }));
    return { parts, namespace: soapBody?.attrs.namespace ?? "" };
  };

  const operationsOf = (binding: XmlElement, service: string, port: string, address: string | undefined): WsdlOperation[] => {
    const path = pathOf(address);
    const soapBinding = binding.children.find((c) => SOAP_BINDINGS.includes(c.ns) && c.name === "binding");
    if (!soapBinding) return [];
    const soapNs = soapBinding.ns;
    const version = soapNs === SOAP12_BINDING_NS ? "1.2" : "1.1";
    const portType = find(portTypes, binding, "type", "portType");
    const abstract = new Map(childrenOf(portType, WSDL_NS, "operation").map((o) => [o.attrs.name, o]));
    return childrenOf(binding, WSDL_NS, "operation").map((op): WsdlOperation => {
      const name = op.attrs.name ?? "";
      const pointer = `/definitions/${at("binding", binding.attrs.name ?? "")}/${at("operation", name)}`;
      const abs = abstract.get(name);
      if (!abs) throw new GeneratorInputError(`the binding "${binding.attrs.name}" has an operation "${name}" its portType "${portType.attrs.name}" does not define`, doc.where(op.at));
      const soapOp = childOf(op, soapNs, "operation");
      const bodyOf = (io: XmlElement | undefined) => (io ? childOf(io, soapNs, "body") : undefined);
      const input = childOf(op, WSDL_NS, "input");
      const output = childOf(op, WSDL_NS, "output");
      const faults = childrenOf(abs, WSDL_NS, "fault").map((f) => ({ name: f.attrs.name ?? "", message: messageOf(f, undefined) }));
      return {
        service,
        port,
        version,
        path,
        address,
        name,
        style: (soapOp?.attrs.style ?? soapBinding.attrs.style) === "rpc" ? "rpc" : "document",
        use: bodyOf(input)?.attrs.use === "encoded" ? "encoded" : "literal",
        action: soapOp?.attrs.soapAction || undefined,
        input: messageOf(childOf(abs, WSDL_NS, "input"), bodyOf(input)),
        output: childOf(abs, WSDL_NS, "output") ? messageOf(childOf(abs, WSDL_NS, "output"), bodyOf(output)) : undefined,
        faults,
        pointer,
      };
    });
  };

  const operations: WsdlOperation[] = [];
  const services = childrenOf(root, WSDL_NS, "service");
  for (const service of services) {
    for (const port of childrenOf(service, WSDL_NS, "port")) {
      const binding = find(bindings, port, "binding", "binding");
      const address = port.children.find((c) => SOAP_BINDINGS.includes(c.ns) && c.name === "address");
      const pointer = `/definitions/${at("service", service.attrs.name ?? "")}/${at("port", port.attrs.name ?? "")}`;
      const ops = operationsOf(binding, service.attrs.name ?? "", port.attrs.name ?? "", address?.attrs.location);
      if (!ops.length) warnings.push({ pointer, message: "not a SOAP port (an HTTP or other binding): skipped" });
      else if (!address) warnings.push({ pointer, message: "the port has no soap:address: its mocks answer at any path" });
      operations.push(...ops);
    }
  }
  // An abstract WSDL (bindings, no service): each SOAP binding's operations, at any path.
  if (!services.length) for (const binding of bindings.values()) operations.push(...operationsOf(binding, binding.attrs.name ?? "", binding.attrs.name ?? "", undefined));
  if (!operations.length) throw new GeneratorInputError("the WSDL has no SOAP operations (no port or binding with a SOAP 1.1 or 1.2 binding)", doc.where(root.at));
  return { name: root.attrs.name, operations, schemas, warnings };
}

function qnameOrFail(doc: XmlDocument, el: XmlElement, value: string): QName {
  const q = qname(el, value);
  if (!q) throw new GeneratorInputError(`the prefix of "${value}" is not declared`, doc.where(el.at));
  return q;
}

/** The path of a soap:address location ("http://host/calc.asmx?x" → "/calc.asmx"); a relative one is kept as a path. */
function pathOf(location: string | undefined): string | undefined {
  if (!location) return undefined;
  try {
    const path = new URL(location).pathname;
    return path === "/" ? undefined : decodeURI(path);
  } catch {
    const path = location.split(/[?#]/)[0];
    return path ? (path.startsWith("/") ? path : `/${path}`) : undefined;
  }
}
