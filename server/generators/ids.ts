// Stable mock ids for generated mocks: the same document gives the same ids,
// so generating again updates the mocks of the last run instead of adding
// copies. Ids keep to the mock id alphabet ([A-Za-z0-9._:-], 200 characters).
import { createHash } from "node:crypto";
import type { GeneratedMock } from "./types";

export function slug(text: string, max = 60): string {
  const s = text
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .toLowerCase();
  return (s || "x").slice(0, max).replace(/[-.]+$/, "");
}

/** `<prefix>-<operation>-<status>[-<example>]`; a long id keeps its start and ends in a hash of the whole. */
export function mockId(...parts: (string | undefined)[]): string {
  const id = parts
    .filter((p): p is string => !!p)
    .map((p) => slug(p, 80))
    .join("-");
  if (id.length <= 200) return id;
  return `${id.slice(0, 180)}-${createHash("sha256").update(id).digest("hex").slice(0, 16)}`;
}

/** Two operations that slug alike (`get /a.b` and `get /a-b`) get -2, -3… in document order. */
export function uniqueIds(mocks: GeneratedMock[]) {
  const seen = new Set<string>();
  for (const m of mocks) {
    let id = m.mock.id;
    for (let n = 2; seen.has(id); n++) id = `${m.mock.id.slice(0, 195)}-${n}`;
    seen.add(id);
    m.mock.id = id;
  }
}
