// Iteration data for a collection run: one row of variables per iteration,
// from a CSV file (header row = variable names) or a JSON array of objects,
// as Postman's runner and Newman take them. Every error names the row (and
// for CSV the line) so the user can fix the file rather than guess.
import { CsvSyntaxError, csvRecords } from "./csv";
import { parseJsonText } from "./json-text";

export type DataValue = string | number | boolean | null;
export type DataRow = Record<string, DataValue>;

export const MAX_DATA_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_DATA_ROWS = 100_000;

export class DataFileError extends Error {
  constructor(
    message: string,
    /** 1-based data row (the CSV header is not a row); for JSON, the array index + 1. */
    readonly row?: number,
    /** 1-based line of the text, when the problem has one. */
    readonly line?: number,
  ) {
    super(message);
    this.name = "DataFileError";
  }
}

export interface DataFileOptions {
  /** Decided from the text when absent: `[` or `{` first means JSON, anything else CSV. */
  format?: "csv" | "json";
  /**
   * `string` (default): every CSV value stays the text it was. `newman`: unquoted values that look
   * like numbers become numbers, as Newman's CSV loader does (its csvAutoParse: "007" → 7, "0x1F" → 0).
   */
  csvValues?: "string" | "newman";
}

const BOM = "\uFEFF";

/** Buffer.byteLength(text) without Buffer: the runner page previews data files in the browser with this parser. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3; // a lone surrogate is written as U+FFFD, three bytes, as Buffer does
  }
  return bytes;
}

export function parseDataFile(input: string | readonly unknown[], opts: DataFileOptions = {}): DataRow[] {
  if (typeof input !== "string") return rowsFromArray(input);
  if (input.length > MAX_DATA_FILE_BYTES || utf8Length(input) > MAX_DATA_FILE_BYTES) {
    throw new DataFileError(`the data file is larger than ${MAX_DATA_FILE_BYTES / 1024 / 1024} MiB`);
  }
  const text = input.startsWith(BOM) ? input.slice(1) : input;
  const first = text.trimStart()[0];
  const format = opts.format ?? (first === "[" || first === "{" ? "json" : "csv");
  return format === "json" ? rowsFromJson(text) : rowsFromCsv(text, opts.csvValues ?? "string");
}

function rowsFromJson(text: string): DataRow[] {
  if (text.trim() === "") throw new DataFileError("the data file is empty");
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const { message, line, column } = parsed.problem;
    throw new DataFileError(`invalid JSON${line ? ` at line ${line}, column ${column}` : ""}: ${message}`, undefined, line);
  }
  if (!Array.isArray(parsed.value)) throw new DataFileError("a JSON data file must be an array of objects, one per iteration");
  return rowsFromArray(parsed.value);
}

function rowsFromArray(items: readonly unknown[]): DataRow[] {
  if (items.length > MAX_DATA_ROWS) throw new DataFileError(`the data file has ${items.length} rows; at most ${MAX_DATA_ROWS} are allowed`);
  return items.map((item, index) => {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      const kind = item === null ? "null" : Array.isArray(item) ? "an array" : typeof item;
      throw new DataFileError(`item ${index} (row ${index + 1}) is ${kind}, not an object of variable names to values`, index + 1);
    }
    // A nested value reaches {{name}} as its JSON text, which is what a request body wants.
    return Object.fromEntries(Object.entries(item).map(([key, value]) => [key, isScalar(value) ? value : JSON.stringify(value)]));
  });
}

const isScalar = (v: unknown): v is DataValue => v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";

function rowsFromCsv(text: string, values: "string" | "newman"): DataRow[] {
  const rows: DataRow[] = [];
  let header: string[] | undefined;
  try {
    for (const record of csvRecords(text)) {
      // A line with nothing on it (often the last one) is no row.
      if (record.fields.length === 1 && record.fields[0] === "" && !record.quoted[0]) continue;
      if (!header) {
        header = checkedHeader(record.fields, record.line);
        continue;
      }
      const rowNumber = rows.length + 1;
      if (record.fields.length > header.length) {
        throw new DataFileError(`row ${rowNumber} (line ${record.line}) has ${record.fields.length} fields but the header names ${header.length} columns`, rowNumber, record.line);
      }
      if (rowNumber > MAX_DATA_ROWS) throw new DataFileError(`the data file has more than ${MAX_DATA_ROWS} rows`, rowNumber, record.line);
      // A short row (a spreadsheet dropping trailing empty cells) leaves the rest empty.
      rows.push(Object.fromEntries(header.map((name, i) => [name, csvValue(record.fields[i] ?? "", record.quoted[i] ?? false, values)])));
    }
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new DataFileError(err.message, undefined, err.line);
    throw err;
  }
  return rows;
}

function checkedHeader(names: string[], line: number): string[] {
  const seen = new Set<string>();
  names.forEach((name, i) => {
    if (name === "") throw new DataFileError(`the header (line ${line}) leaves column ${i + 1} without a name`, undefined, line);
    if (seen.has(name)) throw new DataFileError(`the header (line ${line}) names the column "${name}" twice`, undefined, line);
    seen.add(name);
  });
  return names;
}

function csvValue(text: string, quoted: boolean, values: "string" | "newman"): DataValue {
  if (values === "string" || quoted) return text;
  // Newman's util.isInt and util.isFloat, quirks included.
  if (/^(-|\+)?([1-9]+[0-9]*)$/.test(text)) return parseInt(text, 10);
  if ((text as unknown as number) - parseFloat(text) + 1 >= 0) return parseFloat(text);
  return text;
}
