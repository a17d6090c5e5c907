// `{{name}}` placeholders in the tester's text fields, split out so inputs can
// colour known and unknown variables differently. Postman's dynamic variables
// (`{{$guid}}`, `{{$timestamp}}`, `{{$randomInt}}`…) are produced at send
// time, so they count as known.

export type TemplatePart = { kind: "text"; text: string } | { kind: "variable"; text: string; name: string; known: boolean };

// The executor's pattern (server/tester/variables.ts): anything but braces, names not trimmed.
const PLACEHOLDER = /\{\{([^{}]+?)\}\}/g;

export function splitTemplate(text: string, variables: Record<string, string>): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const at = m.index ?? 0;
    if (at > last) parts.push({ kind: "text", text: text.slice(last, at) });
    const name = m[1];
    parts.push({ kind: "variable", text: m[0], name, known: name.startsWith("$") || Object.hasOwn(variables, name) });
    last = at + m[0].length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}

/** Names used in `text` that no scope defines, each once, in order of appearance. */
export function unknownVariables(text: string, variables: Record<string, string>): string[] {
  const names = splitTemplate(text, variables).flatMap((p) => (p.kind === "variable" && !p.known ? [p.name] : []));
  return [...new Set(names)];
}
