// "Beautify" of request and response bodies: JSON re-indented (request
// bodies may hold unquoted `{{placeholders}}`, which are kept as written) and
// XML indented tag by tag. Both return null when the text does not parse, so
// the caller can say so instead of mangling it.

const PLACEHOLDER = /\{\{[^{}]+?\}\}/y;

/** Swaps placeholders that stand outside strings for quoted markers, so the text parses as JSON. */
function shieldPlaceholders(text: string): { text: string; restore: (s: string) => string } {
  const found: string[] = [];
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    PLACEHOLDER.lastIndex = i;
    const m = PLACEHOLDER.exec(text);
    if (m) {
      out += `"__pm_placeholder_${found.length}__"`;
      found.push(m[0]);
      i += m[0].length - 1;
      continue;
    }
    out += c;
  }
  return { text: out, restore: (s) => s.replace(/"__pm_placeholder_(\d+)__"/g, (_, n: string) => found[Number(n)]) };
}

export function formatJson(text: string, indent = 2): string | null {
  if (!text.trim()) return text;
  const { text: shielded, restore } = shieldPlaceholders(text);
  try {
    return restore(JSON.stringify(JSON.parse(shielded), null, indent));
  } catch {
    return null;
  }
}

const XML_TOKEN = /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<[^>]+>|[^<]+/g;

export function formatXml(text: string, indent = "  "): string | null {
  const source = text.trim();
  if (!source) return text;
  if (!source.startsWith("<")) return null;
  const tokens = source.replace(/>\s+</g, "><").match(XML_TOKEN) ?? [];
  const lines: string[] = [];
  let depth = 0;
  const pad = () => indent.repeat(Math.max(0, depth));
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.startsWith("</")) {
      depth--;
      lines.push(pad() + t);
    } else if (t.startsWith("<?") || t.startsWith("<!") || t.endsWith("/>")) {
      lines.push(pad() + t);
    } else if (t.startsWith("<")) {
      const next = tokens[i + 1];
      const after = tokens[i + 2];
      if (next !== undefined && !next.startsWith("<") && after?.startsWith("</")) {
        // <a>text</a> stays on one line.
        lines.push(pad() + t + next.trim() + after);
        i += 2;
      } else if (next?.startsWith("</")) {
        lines.push(pad() + t + next);
        i += 1;
      } else {
        lines.push(pad() + t);
        depth++;
      }
    } else if (t.trim()) {
      lines.push(pad() + t.trim());
    }
  }
  return depth === 0 ? lines.join("\n") : null;
}
