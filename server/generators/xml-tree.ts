// An XML document (a WSDL and its inline XSD) as a tree whose names are
// resolved to namespace URIs, because WSDL and XSD refer to each other by
// QName ("tns:GetBook") and the prefixes are only the document's spelling.
// Each element keeps where it starts, so a value error can name its line.
// Same parser and refusals as the SOAP stub (fast-xml-parser; a DTD is
// refused, so no entity expansion and no external entities).
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { MAX_DOCUMENT_BYTES } from "./document-text";
import { GeneratorInputError, type DocumentLocation } from "./input-error";

export interface XmlElement {
  /** Namespace URI; "" when the element is in no namespace. */
  ns: string;
  name: string;
  /** Attributes as written (namespace declarations left out). */
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
  /** Character offset of the start tag. */
  at: number;
  /** Prefix → URI in scope ("" is the default namespace). */
  scope: ReadonlyMap<string, string>;
}

export interface XmlDocument {
  root: XmlElement;
  /** Line and column of a character offset. */
  where(at: number): DocumentLocation;
}

const MAX_DEPTH = 200;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  captureMetaData: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_DEPTH,
});
const META = XMLParser.getMetaDataSymbol() as unknown as string;

type Raw = Record<string, unknown>;

function locate(text: string, at: number): DocumentLocation {
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  return { line, column: at - before.lastIndexOf("\n") };
}

function build(raw: Raw, parent: ReadonlyMap<string, string>): XmlElement | undefined {
  const tag = Object.keys(raw).find((k) => k !== ":@" && k !== "#text");
  if (tag === undefined) return undefined;
  const all = (raw[":@"] ?? {}) as Record<string, string>;
  let scope = parent;
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries(all)) {
    if (k === "xmlns" || k.startsWith("xmlns:")) {
      if (scope === parent) scope = new Map(parent);
      (scope as Map<string, string>).set(k === "xmlns" ? "" : k.slice(6), v);
    } else attrs[k] = v;
  }
  const colon = tag.indexOf(":");
  const prefix = colon < 0 ? "" : tag.slice(0, colon);
  const ns = scope.get(prefix);
  if (ns === undefined && prefix !== "") throw new GeneratorInputError(`the prefix "${prefix}" of <${tag}> is not declared`);
  const children: XmlElement[] = [];
  let text = "";
  for (const item of (raw[tag] ?? []) as Raw[]) {
    if ("#text" in item) text += String(item["#text"]);
    else {
      const child = build(item, scope);
      if (child) children.push(child);
    }
  }
  const meta = (raw as Record<string, { startIndex?: number }>)[META];
  return { ns: ns ?? "", name: colon < 0 ? tag : tag.slice(colon + 1), attrs, children, text, at: meta?.startIndex ?? 0, scope };
}

export function readXml(text: string): XmlDocument {
  if (Buffer.byteLength(text) > MAX_DOCUMENT_BYTES) throw new GeneratorInputError(`the document is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB`);
  if (text.trim() === "") throw new GeneratorInputError("the document is empty");
  const doctype = /<!DOCTYPE/i.exec(text);
  if (doctype) throw new GeneratorInputError("a document type declaration (<!DOCTYPE>) is not accepted", locate(text, doctype.index));
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new GeneratorInputError(`invalid XML: ${valid.err.msg}`, { line: valid.err.line, column: valid.err.col });
  let parsed: Raw[];
  try {
    parsed = parser.parse(text) as Raw[];
  } catch (err) {
    throw new GeneratorInputError(`invalid XML: ${(err as Error).message}`);
  }
  const element = parsed.find((r) => Object.keys(r).some((k) => k !== ":@" && k !== "#text"));
  const root = element && build(element, new Map([["xml", "http://www.w3.org/XML/1998/namespace"]]));
  if (!root) throw new GeneratorInputError("the document has no root element");
  return { root, where: (at) => locate(text, at) };
}

export interface QName {
  ns: string;
  name: string;
}

/** A QName attribute value ("tns:Book") read in the element's scope; an unprefixed one takes the default namespace, as XSD says. */
export function qname(el: XmlElement, value: string): QName | undefined {
  const colon = value.indexOf(":");
  const prefix = colon < 0 ? "" : value.slice(0, colon);
  const ns = el.scope.get(prefix);
  if (ns === undefined && prefix !== "") return undefined;
  return { ns: ns ?? "", name: colon < 0 ? value : value.slice(colon + 1) };
}

export const qkey = (q: QName) => `{${q.ns}}${q.name}`;

export const childrenOf = (el: XmlElement, ns: string | readonly string[], name?: string) =>
  el.children.filter((c) => (typeof ns === "string" ? c.ns === ns : ns.includes(c.ns)) && (name === undefined || c.name === name));

export const childOf = (el: XmlElement, ns: string | readonly string[], name: string) => childrenOf(el, ns, name)[0];
