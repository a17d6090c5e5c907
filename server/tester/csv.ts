// CSV records as RFC 4180 writes them (quoted fields with "" for a quote,
// line breaks inside quotes, CRLF or LF), each with the line it starts on so
// an error in a data file can name where to look. Records come one at a time
// so a caller with a row cap stops reading at the cap.

export interface CsvRecord {
  fields: string[];
  /** Whether each field was written in quotes (Newman-style casting leaves quoted values alone). */
  quoted: boolean[];
  /** 1-based line the record starts on. */
  line: number;
}

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

const UNQUOTED = /[^,\r\n]*/y;

/** Line breaks in a piece of text: CRLF, LF and a lone CR each count once. */
function lineBreaks(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) count++;
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) count++;
  }
  return count;
}

/**
 * The records of a CSV text (no BOM: strip it first). A line with nothing on it is a record with one
 * empty unquoted field; deciding to skip it is the caller's. A quote inside an unquoted field is kept
 * as written, as spreadsheets export `5" pipe`; text after a closing quote is an error.
 */
export function* csvRecords(text: string): Generator<CsvRecord> {
  const n = text.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const record: CsvRecord = { fields: [], quoted: [], line };
    for (;;) {
      if (text.charCodeAt(i) === 34 /* " */) {
        const opened = line;
        let value = "";
        let from = i + 1;
        for (;;) {
          const q = text.indexOf('"', from);
          if (q < 0) throw new CsvSyntaxError(`line ${opened}: a quoted field is never closed`, opened);
          const piece = text.slice(from, q);
          value += piece;
          line += lineBreaks(piece);
          if (text.charCodeAt(q + 1) === 34) {
            value += '"';
            from = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
        record.fields.push(value);
        record.quoted.push(true);
        const next = text[i];
        if (i < n && next !== "," && next !== "\r" && next !== "\n") {
          throw new CsvSyntaxError(`line ${line}: ${JSON.stringify(next)} after the closing quote of field ${record.fields.length} (a quote inside a quoted field is written "")`, line);
        }
      } else {
        UNQUOTED.lastIndex = i;
        UNQUOTED.exec(text);
        record.fields.push(text.slice(i, UNQUOTED.lastIndex));
        record.quoted.push(false);
        i = UNQUOTED.lastIndex;
      }
      if (text.charCodeAt(i) !== 44 /* , */) break;
      i++;
    }
    if (text.charCodeAt(i) === 13) {
      i++;
      if (text.charCodeAt(i) === 10) i++;
      line++;
    } else if (text.charCodeAt(i) === 10) {
      i++;
      line++;
    }
    yield record;
  }
}
