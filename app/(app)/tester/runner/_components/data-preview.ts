// What the runner shows of a picked data file before it is sent: parsed in
// the browser by the server's own parser (with Newman's CSV number casting,
// as the run will), so a file the run would refuse is refused here with the
// same row and line, and a good one shows its row count, its columns and its
// first rows.
import { DataFileError, type DataRow, MAX_DATA_FILE_BYTES, parseDataFile } from "@/server/tester/data-file";

export const PREVIEW_ROWS = 5;

export type DataPreview =
  | { ok: true; format: "csv" | "json"; rowCount: number; columns: string[]; rows: DataRow[] }
  | { ok: false; message: string };

export function previewDataFile(text: string): DataPreview {
  const first = text.replace(/^\uFEFF/, "").trimStart()[0];
  const format = first === "[" || first === "{" ? "json" : "csv";
  let rows: DataRow[];
  try {
    rows = parseDataFile(text, { csvValues: "newman" });
  } catch (err) {
    if (err instanceof DataFileError) return { ok: false, message: `${err.message.charAt(0).toUpperCase()}${err.message.slice(1)}` };
    throw err;
  }
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  return { ok: true, format, rowCount: rows.length, columns, rows: rows.slice(0, PREVIEW_ROWS) };
}

/** Refuses a file too large to read before reading it. */
export function tooLarge(bytes: number): string | null {
  return bytes > MAX_DATA_FILE_BYTES ? `The file has ${(bytes / 1024 / 1024).toFixed(1)} MiB; a data file may have at most ${MAX_DATA_FILE_BYTES / 1024 / 1024} MiB` : null;
}

/** A cell as the preview shows it: null as empty, numbers and booleans as written. */
export function cellText(value: DataRow[string] | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}
