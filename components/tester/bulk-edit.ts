// Postman's bulk edit of key/value lists: one `key: value` per line, a
// disabled row prefixed with `//`. Descriptions and secret flags are not in
// the text; they are kept for keys that are still there after the edit.
import type { KeyValueRow } from "./key-value-editor";

export function rowsToBulkText(rows: readonly KeyValueRow[]): string {
  return rows.map((r) => `${r.enabled ? "" : "//"}${r.key}:${r.value === "" ? "" : ` ${r.value}`}`).join("\n");
}

export function bulkTextToRows(text: string, previous: readonly KeyValueRow[]): KeyValueRow[] {
  const byKey = new Map(previous.map((r) => [r.key, r]));
  const rows: KeyValueRow[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    if (!line) continue;
    const enabled = !line.startsWith("//");
    if (!enabled) line = line.slice(2).trimStart();
    const colon = line.indexOf(":");
    const key = (colon < 0 ? line : line.slice(0, colon)).trim();
    const value = colon < 0 ? "" : line.slice(colon + 1).trim();
    const before = byKey.get(key);
    const row: KeyValueRow = { key, value, enabled };
    if (before?.description !== undefined) row.description = before.description;
    if (before?.secret !== undefined) row.secret = before.secret;
    rows.push(row);
  }
  return rows;
}
