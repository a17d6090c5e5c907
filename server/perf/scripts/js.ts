// Writing JavaScript source safely. Everything a user or a recording supplies
// (names, URLs, bodies, header values) reaches a generated script only
// through these functions: a plain string through JSON.stringify, a string
// with `{{variables}}` as a template literal whose literal parts are escaped
// (backslash, backtick, `${`, carriage returns, lone surrogates), so a quote,
// a backtick or `${` in the data is data and never code.

/** One piece of a string the script builds: literal text, or a JavaScript expression spliced in. */
export type Part = { text: string } | { code: string };
/** A string as the script computes it: literal pieces and expressions (`__ENV.baseUrl`, `uuid()`), in order. */
export type Text = Part[];

export const lit = (text: string): Text => (text === "" ? [] : [{ text }]);
export const expr = (code: string): Text => [{ code }];

export function concat(...texts: Text[]): Text {
  const out: Text = [];
  for (const part of texts.flat()) {
    const last = out[out.length - 1];
    if ("text" in part && last && "text" in last) out[out.length - 1] = { text: last.text + part.text };
    else if (!("text" in part) || part.text !== "") out.push(part);
  }
  return out;
}

export const isLiteral = (t: Text): boolean => t.every((p) => "text" in p);
export const literalOf = (t: Text): string => t.map((p) => ("text" in p ? p.text : "")).join("");

/** The literal text the Text starts with ("" when it starts with an expression). */
export const leadingText = (t: Text): string => (t.length && "text" in t[0] ? t[0].text : "");

export function mapLiterals(t: Text, fn: (s: string) => string): Text {
  return t.map((p) => ("text" in p ? { text: fn(p.text) } : p));
}

// A lone surrogate is not valid UTF-8: written as an escape, the script stays the same text wherever it is stored.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const hex4 = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** A double-quoted JavaScript string literal. */
export function jsString(s: string): string {
  // JSON.stringify escapes quotes, backslashes, control characters and lone surrogates; U+2028/9 are valid in ES2019 strings but not in older parsers.
  return JSON.stringify(s).replace(/[\u2028\u2029]/g, hex4);
}

/** The inside of a template literal for literal text. */
function templateChunk(s: string): string {
  return s
    .replace(/\\/g, "\\\\")
    .replace(/`/g, "\\`")
    .replace(/\$\{/g, "\\${")
    .replace(/\r/g, "\\r") // a raw CR in a template literal would be read as LF
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u2028\u2029]/g, hex4)
    .replace(LONE_SURROGATE, hex4);
}

/** The expression for a Text: a string literal when it is all literal, else a template literal. */
export function jsText(t: Text): string {
  if (t.length === 0) return '""';
  if (isLiteral(t)) {
    const s = literalOf(t);
    // Several lines (an XML or JSON body) read better as they are than as one line of \n.
    return s.includes("\n") && s.length > 80 ? `\`${templateChunk(s)}\`` : jsString(s);
  }
  // `__ENV.name` alone reads better bare; other expressions (numbers, calls) are made strings by the template.
  if (t.length === 1 && "code" in t[0] && /^__ENV\.[A-Za-z_][A-Za-z0-9_]*$/.test(t[0].code)) return t[0].code;
  return `\`${t.map((p) => ("text" in p ? templateChunk(p.text) : `\${${p.code}}`)).join("")}\``;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** An object key: bare when it is an identifier, else quoted. */
export const jsKey = (k: string): string => (IDENTIFIER.test(k) && k !== "__proto__" ? k : jsString(k));

/** Marks a value that is already JavaScript source (an expression) inside jsValue's input. */
export class Code {
  constructor(readonly code: string) {}
}

/**
 * A JSON-like value as a JavaScript literal, indented: strings quoted safely,
 * `Code` written as is, and Text (an array of parts) is not special here —
 * callers wrap Text with `new Code(jsText(t))`.
 */
export function jsValue(value: unknown, indent = ""): string {
  if (value instanceof Code) return value.code;
  if (value === undefined) return "undefined";
  if (value === null || typeof value === "number" || typeof value === "boolean") return JSON.stringify(value) ?? "null";
  if (typeof value === "string") return jsString(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v) => jsValue(v, inner));
    const flat = `[${items.join(", ")}]`;
    return flat.length <= 80 && !flat.includes("\n") ? flat : `[\n${items.map((i) => `${inner}${i}`).join(",\n")},\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  const items = entries.map(([k, v]) => `${jsKey(k)}: ${jsValue(v, inner)}`);
  const flat = `{ ${items.join(", ")} }`;
  return flat.length <= 80 && !flat.includes("\n") ? flat : `{\n${items.map((i) => `${inner}${i}`).join(",\n")},\n${indent}}`;
}

/** A name for group() and check(): k6 refuses "::" in them (it separates group paths). */
export const safeLabel = (s: string): string => s.replace(/::/g, ": ").replace(/\s+/g, " ").trim().slice(0, 200) || "request";

/** A one-line comment: a line break in the data would end the comment and start code. */
export const commentText = (s: string): string => s.replace(/[\r\n\u2028\u2029]+/g, " ").replace(/\*\//g, "* /");
