// An example XML value for an XSD element or type (the inline schemas of a
// WSDL), in the form the SOAP stub builds into XML: child elements as keys,
// attributes as "@name", text beside attributes as "#text". One occurrence of
// everything (optional elements included, lists of one), the first branch of
// a choice, the first enumeration value; values the schema leaves open become
// `$.fake.*` placeholders (xs:int → Int, xs:dateTime → RFC3339, a string
// named "email" → Email), pinned ones (facets, fixed, default) stay plain.
// An element whose namespace differs from its parent's gets an "@xmlns".
import { NAME_FAKES } from "./schema-sample";
import { childOf, childrenOf, qkey, qname, type QName, type XmlElement } from "./xml-tree";

export const XSD_NS = "http://www.w3.org/2001/XMLSchema";
const MAX_DEPTH = 12;

type Value = string | Record<string, unknown>;

interface Declared {
  el: XmlElement;
  /** targetNamespace of the schema that declares it. */
  tns: string;
  qualified: boolean;
}

export interface SchemaIndex {
  elements: Map<string, Declared>;
  types: Map<string, Declared>;
  groups: Map<string, Declared>;
  attributeGroups: Map<string, Declared>;
}

export function indexSchemas(schemas: XmlElement[]): SchemaIndex {
  const index: SchemaIndex = { elements: new Map(), types: new Map(), groups: new Map(), attributeGroups: new Map() };
  const into: Record<string, Map<string, Declared>> = { element: index.elements, complexType: index.types, simpleType: index.types, group: index.groups, attributeGroup: index.attributeGroups };
  for (const schema of schemas) {
    const tns = schema.attrs.targetNamespace ?? "";
    const qualified = schema.attrs.elementFormDefault === "qualified";
    for (const el of childrenOf(schema, XSD_NS)) {
      const map = into[el.name];
      if (map && el.attrs.name) map.set(qkey({ ns: tns, name: el.attrs.name }), { el, tns, qualified });
    }
  }
  return index;
}

/** Built-in simple types: the placeholder for an open value, else a fixed sample. */
const BUILTIN: Record<string, { fake?: string; plain: string }> = {
  boolean: { plain: "true" },
  int: { fake: "Int", plain: "1" },
  integer: { fake: "Int", plain: "1" },
  long: { fake: "Int", plain: "1" },
  nonNegativeInteger: { fake: "Int", plain: "1" },
  unsignedInt: { fake: "Int", plain: "1" },
  unsignedLong: { fake: "Int", plain: "1" },
  positiveInteger: { plain: "1" },
  short: { plain: "1" },
  byte: { plain: "1" },
  unsignedShort: { plain: "1" },
  unsignedByte: { plain: "1" },
  negativeInteger: { plain: "-1" },
  nonPositiveInteger: { plain: "0" },
  decimal: { fake: "Float", plain: "1.5" },
  float: { fake: "Float", plain: "1.5" },
  double: { fake: "Float", plain: "1.5" },
  dateTime: { fake: "RFC3339", plain: "2026-01-01T00:00:00Z" },
  date: { fake: "Date", plain: "2026-01-01" },
  time: { fake: "Time", plain: "12:00:00" },
  duration: { plain: "P1D" },
  anyURI: { fake: "URL", plain: "https://example.com/" },
  base64Binary: { plain: "AA==" },
  hexBinary: { plain: "00" },
  QName: { plain: "xs:string" },
  language: { plain: "en" },
  gYear: { plain: "2026" },
  gYearMonth: { plain: "2026-01" },
};

export interface Sampler {
  /** An element declared at the top of a schema, as { name: value } ready for a payload. */
  element(name: QName, parentNs: string): Record<string, unknown> | undefined;
  /** A value of a named type, for an element in namespace `ns` (RPC parts). */
  ofType(type: QName, name: string, ns: string): Value;
  /** Types, elements and groups referred to but not declared in the document. */
  missing: Set<string>;
}

export function sampler(index: SchemaIndex): Sampler {
  const missing = new Set<string>();
  const lookup = (map: Map<string, Declared>, q: QName | undefined) => {
    if (!q) return undefined;
    const found = map.get(qkey(q));
    if (!found && q.ns !== XSD_NS) missing.add(`${q.ns ? `{${q.ns}}` : ""}${q.name}`);
    return found;
  };

  function simple(type: QName | undefined, inline: XmlElement | undefined, name: string, depth: number, pinned = false): string {
    if (inline) return simpleOf(inline, name, depth, pinned);
    if (!type) return name;
    if (type.ns === XSD_NS) {
      const b = BUILTIN[type.name];
      if (!b) {
        // xs:string and its kin (token, normalizedString, ID, NCName…): a name-like text.
        if (pinned) return name;
        const fake = NAME_FAKES.find(([re]) => re.test(name))?.[1];
        return fake ? `$.fake.${fake}` : name;
      }
      return !pinned && b.fake ? `$.fake.${b.fake}` : b.plain;
    }
    const decl = lookup(index.types, type);
    if (!decl || depth > MAX_DEPTH) return name;
    return decl.el.name === "simpleType" ? simpleOf(decl.el, name, depth + 1, pinned) : textOf(decl.el, name, depth + 1);
  }

  /** A simpleType: its first enumeration value, else a value of its base (kept plain when facets pin it). */
  function simpleOf(st: XmlElement, name: string, depth: number, pinned: boolean): string {
    const restriction = childOf(st, XSD_NS, "restriction");
    if (restriction) {
      const facets = childrenOf(restriction, XSD_NS);
      const enumeration = facets.find((f) => f.name === "enumeration");
      if (enumeration) return enumeration.attrs.value ?? "";
      const pattern = facets.find((f) => f.name === "pattern")?.attrs.value ?? "";
      if (/\[[\\da-fA-F-]*\]\{8\}/.test(pattern) && /\{12\}/.test(pattern)) return "$.fake.UUID";
      const base = restriction.attrs.base ? qname(restriction, restriction.attrs.base) : undefined;
      let value = simple(base, childOf(restriction, XSD_NS, "simpleType"), name, depth + 1, pinned || facets.some((f) => f.name !== "annotation"));
      const facet = (n: string) => facets.find((f) => f.name === n)?.attrs.value;
      const min = facet("minInclusive") ?? facet("minExclusive");
      if (min !== undefined && Number.isFinite(Number(min))) value = String(Number(min) + (facet("minInclusive") === undefined ? 1 : 0));
      const maxLength = Number(facet("maxLength") ?? facet("length") ?? NaN);
      const minLength = Number(facet("minLength") ?? facet("length") ?? NaN);
      if (maxLength >= 0) value = value.slice(0, maxLength);
      if (minLength > value.length) value = value.padEnd(minLength, "x");
      return value;
    }
    const list = childOf(st, XSD_NS, "list");
    if (list) return simple(list.attrs.itemType ? qname(list, list.attrs.itemType) : undefined, childOf(list, XSD_NS, "simpleType"), name, depth + 1, pinned);
    const union = childOf(st, XSD_NS, "union");
    if (union) {
      const first = union.attrs.memberTypes?.trim().split(/\s+/)[0];
      return simple(first ? qname(union, first) : undefined, childOf(union, XSD_NS, "simpleType"), name, depth + 1, pinned);
    }
    return name;
  }

  /** The text of a complex type with simple content (its attributes are added by complex()). */
  function textOf(ct: XmlElement, name: string, depth: number): string {
    const ext = childOf(ct, XSD_NS, "simpleContent")?.children.find((c) => c.name === "extension" || c.name === "restriction");
    return ext?.attrs.base ? simple(qname(ext, ext.attrs.base), undefined, name, depth + 1) : "";
  }

  /** Fills `out` with the attributes and children a complexType (or a model group inside it) describes. */
  function content(node: XmlElement, out: Record<string, unknown>, ctx: { tns: string; qualified: boolean; ns: string; depth: number; seen: Set<string> }) {
    for (const c of node.children) {
      if (c.ns !== XSD_NS) continue;
      switch (c.name) {
        case "sequence":
        case "all":
          content(c, out, ctx);
          break;
        case "choice": {
          const first = c.children.find((x) => x.ns === XSD_NS && x.name !== "annotation");
          if (first) content({ ...c, children: [first] }, out, ctx);
          break;
        }
        case "element":
          if (c.attrs.maxOccurs !== "0") addElement(c, out, ctx);
          break;
        case "group": {
          const g = lookup(index.groups, c.attrs.ref ? qname(c, c.attrs.ref) : undefined);
          if (g && !ctx.seen.has(`g${qkey({ ns: g.tns, name: g.el.attrs.name })}`)) content(g.el, out, { ...ctx, tns: g.tns, qualified: g.qualified, seen: new Set(ctx.seen).add(`g${qkey({ ns: g.tns, name: g.el.attrs.name })}`) });
          break;
        }
        case "attribute":
          if (c.attrs.use !== "prohibited") addAttribute(c, out, ctx.depth);
          break;
        case "attributeGroup": {
          const g = lookup(index.attributeGroups, c.attrs.ref ? qname(c, c.attrs.ref) : undefined);
          if (g) content(g.el, out, { ...ctx, tns: g.tns, qualified: g.qualified });
          break;
        }
        case "complexContent":
        case "simpleContent":
          content(c, out, ctx);
          break;
        case "extension": {
          // The base type's content comes first, then the extension's own.
          const base = c.attrs.base ? qname(c, c.attrs.base) : undefined;
          const decl = base && base.ns !== XSD_NS ? lookup(index.types, base) : undefined;
          if (decl && decl.el.name === "complexType" && !ctx.seen.has(qkey(base!))) content(decl.el, out, { ...ctx, tns: decl.tns, qualified: decl.qualified, seen: new Set(ctx.seen).add(qkey(base!)) });
          content(c, out, ctx);
          break;
        }
        case "restriction":
          // A complexContent restriction restates the content it keeps; simpleContent attributes likewise.
          content(c, out, ctx);
          break;
      }
    }
  }

  function addAttribute(a: XmlElement, out: Record<string, unknown>, depth: number) {
    const ref = a.attrs.ref ? qname(a, a.attrs.ref) : undefined;
    const name = a.attrs.name ?? ref?.name;
    if (!name) return;
    const value = a.attrs.fixed ?? a.attrs.default ?? simple(a.attrs.type ? qname(a, a.attrs.type) : undefined, childOf(a, XSD_NS, "simpleType"), name, depth + 1);
    out[`@${name}`] = value;
  }

  function put(out: Record<string, unknown>, key: string, value: unknown) {
    if (!(key in out)) out[key] = value;
    else out[key] = Array.isArray(out[key]) ? [...(out[key] as unknown[]), value] : [out[key], value];
  }

  /** A local element declaration (or a ref to a global one) inside a complex type. */
  function addElement(decl: XmlElement, out: Record<string, unknown>, ctx: { tns: string; qualified: boolean; ns: string; depth: number; seen: Set<string> }) {
    if (decl.attrs.ref) {
      const ref = qname(decl, decl.attrs.ref);
      const global = lookup(index.elements, ref);
      if (global && ref) {
        const one = elementValue(global.el, global.tns, ctx.ns, ctx.depth + 1, ctx.seen);
        if (one !== undefined) put(out, ref.name, one);
        else if (decl.attrs.minOccurs !== "0") put(out, ref.name, "");
      }
      return;
    }
    const name = decl.attrs.name;
    if (!name) return;
    const form = decl.attrs.form ? decl.attrs.form === "qualified" : ctx.qualified;
    const value = elementValue(decl, form ? ctx.tns : "", ctx.ns, ctx.depth + 1, ctx.seen);
    if (value !== undefined) put(out, name, value);
    else if (decl.attrs.minOccurs !== "0") put(out, name, "");
  }

  /** The value of one element: text, or an object of attributes and children; undefined when recursion stops it. */
  function elementValue(decl: XmlElement, ns: string, parentNs: string, depth: number, seen: Set<string>): unknown {
    if (depth > MAX_DEPTH) return undefined;
    const name = decl.attrs.name ?? "";
    const xmlns = ns !== parentNs ? { "@xmlns": ns } : {};
    const wrap = (text: string) => (Object.keys(xmlns).length ? { ...xmlns, "#text": text } : text);
    if (decl.attrs.fixed !== undefined || decl.attrs.default !== undefined) return wrap(decl.attrs.fixed ?? decl.attrs.default ?? "");
    const type = decl.attrs.type ? qname(decl, decl.attrs.type) : undefined;
    const inlineComplex = childOf(decl, XSD_NS, "complexType");
    const inlineSimple = childOf(decl, XSD_NS, "simpleType");
    if (inlineSimple) return wrap(simpleOf(inlineSimple, name, depth, false));
    let ct = inlineComplex;
    let owner = { tns: "", qualified: false };
    let inner = seen;
    if (!ct && type) {
      if (type.ns === XSD_NS) return type.name === "anyType" ? wrap("") : wrap(simple(type, undefined, name, depth));
      const found = lookup(index.types, type);
      if (!found) return wrap("");
      if (found.el.name === "simpleType") return wrap(simpleOf(found.el, name, depth, false));
      // A type met again on its own path: stop here (optional elements are then left out).
      if (seen.has(qkey(type))) return undefined;
      inner = new Set(seen).add(qkey(type));
      ct = found.el;
      owner = found;
    } else if (ct) {
      owner = ownerOf(decl);
    }
    if (!ct) return wrap("");
    const out: Record<string, unknown> = { ...xmlns };
    const simpleContent = childOf(ct, XSD_NS, "simpleContent");
    if (simpleContent) out["#text"] = textOf(ct, name, depth);
    content(ct, out, { tns: owner.tns, qualified: owner.qualified, ns, depth, seen: inner });
    if (Object.keys(out).length === 0) return "";
    return out;
  }

  /** The schema an anonymous type belongs to: the nearest enclosing declaration's, found through the index. */
  const owners = new Map<XmlElement, Declared>();
  for (const map of [index.elements, index.types, index.groups, index.attributeGroups]) for (const d of map.values()) markOwner(d.el, d);
  function markOwner(el: XmlElement, d: Declared) {
    owners.set(el, d);
    for (const c of el.children) markOwner(c, d);
  }
  const ownerOf = (el: XmlElement) => owners.get(el) ?? { tns: "", qualified: false };

  return {
    missing,
    element(name, parentNs) {
      const global = lookup(index.elements, name);
      if (!global) return undefined;
      const value = elementValue(global.el, global.tns, parentNs, 0, new Set());
      return { [name.name]: value ?? "" };
    },
    ofType(type, name, ns) {
      if (type.ns === XSD_NS) return simple(type, undefined, name, 0);
      const found = lookup(index.types, type);
      if (!found) return "";
      if (found.el.name === "simpleType") return simpleOf(found.el, name, 0, false);
      const out: Record<string, unknown> = {};
      if (childOf(found.el, XSD_NS, "simpleContent")) out["#text"] = textOf(found.el, name, 0);
      content(found.el, out, { tns: found.tns, qualified: found.qualified, ns, depth: 0, seen: new Set([qkey(type)]) });
      return Object.keys(out).length ? out : "";
    },
  };
}
