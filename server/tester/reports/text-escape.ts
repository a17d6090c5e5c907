// Escaping for the XML and HTML reports. Test names, assertion messages and
// logs come from user scripts and from the services under test, so they may
// hold markup, terminal colour codes or bytes XML 1.0 cannot carry at all; a
// report must show them as text and still parse in every CI server.

/** Terminal colour and cursor sequences (chai and Jest messages carry them): meaningless in a file. */
const ANSI = /\u001B\[[0-9;?]*[ -/]*[@-~]/g;
// C0 controls but tab, LF and CR, DEL and C1 controls (XML 1.0 forbids the first, discourages the rest),
// U+FFFE/U+FFFF, and a surrogate without its pair.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function cleanText(text: string): string {
  return text.replace(ANSI, "").replace(NOT_XML, "");
}

const TEXT_REFS: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
// In an attribute a literal line break would be read back as a space (attribute-value normalisation).
const ATTR_REFS: Record<string, string> = { ...TEXT_REFS, '"': "&quot;", "'": "&apos;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;" };

/** Element content; `>` too, so `]]>` can never appear. */
export function xmlText(text: string): string {
  return cleanText(text).replace(/[&<>]/g, (c) => TEXT_REFS[c]);
}

export function xmlAttr(text: string): string {
  return cleanText(text).replace(/[&<>"'\t\n\r]/g, (c) => ATTR_REFS[c]);
}

const HTML_REFS: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Safe both as element content and inside a quoted attribute. */
export function html(text: string | number | null | undefined): string {
  return cleanText(String(text ?? "")).replace(/[&<>"']/g, (c) => HTML_REFS[c]);
}
