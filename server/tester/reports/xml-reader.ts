// A JUnit file as a plain element tree, read without any entity expansion:
// a document type declaration is refused outright (no "billion laughs", no
// external entities), and only XML's five named references and numeric
// character references are decoded, by us, in text and attributes - never
// inside CDATA, which is literal. Same parser as the rest of the project
// (fast-xml-parser), with its validator naming the line and column of a
// syntax error.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { lineColumnAt } from "../json-text";
import { ReportFormatError } from "./report-format-error";

export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  /** The element's own text and CDATA, in document order. */
  text: string;
}

const MAX_DEPTH = 100;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: "#cdata",
  commentPropName: false,
  maxNestedTags: MAX_DEPTH,
});

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const REFERENCE = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));/g;

function decode(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(REFERENCE, (_all, hex: string | undefined, dec: string | undefined, named: string | undefined) => {
    if (named) return NAMED[named];
    const code = hex ? parseInt(hex, 16) : Number(dec);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
  });
}

type Raw = Record<string, unknown>;

function build(raw: Raw): XmlNode | undefined {
  const name = Object.keys(raw).find((k) => k !== ":@" && k !== "#text" && k !== "#cdata");
  if (name === undefined) return undefined;
  const attrs: Record<string, string> = {};
  // Attribute-value normalisation: a literal line break or tab is a space; &#10; stays a line break.
  for (const [k, v] of Object.entries((raw[":@"] ?? {}) as Record<string, string>)) attrs[k] = decode(String(v).replace(/[\t\n\r]/g, " "));
  const node: XmlNode = { name, attrs, children: [], text: "" };
  for (const item of (raw[name] ?? []) as Raw[]) {
    if ("#text" in item) node.text += decode(String(item["#text"]));
    else if ("#cdata" in item) node.text += ((item["#cdata"] ?? []) as Raw[]).map((c) => String(c["#text"] ?? "")).join("");
    else {
      const child = build(item);
      if (child) node.children.push(child);
    }
  }
  return node;
}

/** The root element of an XML text; the caller has already checked its size. */
export function readXml(input: string): XmlNode {
  // Blank lines before the XML declaration (a stray newline from the tool that wrote the file)
  // make it invalid; skip them, and count them back into the line of any error.
  const lead = /^\s+(?=<\?xml[\s?])/.exec(input)?.[0] ?? "";
  const text = input.slice(lead.length);
  const skipped = lead.split("\n").length - 1;
  const doctype = /<!DOCTYPE/i.exec(text);
  if (doctype) {
    const at = lineColumnAt(text, doctype.index);
    throw new ReportFormatError("a document type declaration (<!DOCTYPE>) is not accepted: JUnit reports have none, and its entities could expand without bound", at.line + skipped, at.column);
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new ReportFormatError(`invalid XML: ${valid.err.msg}`, valid.err.line + skipped, valid.err.col);
  let parsed: Raw[];
  try {
    parsed = parser.parse(text) as Raw[];
  } catch (err) {
    throw new ReportFormatError(`invalid XML: ${(err as Error).message}`);
  }
  const roots = parsed.map(build).filter((n): n is XmlNode => n !== undefined);
  if (roots.length === 0) throw new ReportFormatError("the XML document has no root element");
  if (roots.length > 1) throw new ReportFormatError(`invalid XML: the document has ${roots.length} root elements (<${roots[0].name}>, <${roots[1].name}>…) where XML allows one`);
  return roots[0];
}
