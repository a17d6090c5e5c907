// Iteration data files: RFC 4180 CSV edge cases, JSON arrays, caps and the
// row/line every error names.
import { describe, expect, it } from "vitest";
import { DataFileError, MAX_DATA_FILE_BYTES, MAX_DATA_ROWS, parseDataFile } from "./data-file";

describe("CSV", () => {
  it.each<[string, string, Record<string, unknown>[]]>([
    ["header and rows", "user,pass\nann,1\nbob,2\n", [{ user: "ann", pass: "1" }, { user: "bob", pass: "2" }]],
    ["CRLF line ends", "user,pass\r\nann,1\r\nbob,2\r\n", [{ user: "ann", pass: "1" }, { user: "bob", pass: "2" }]],
    ["lone CR line ends", "a,b\r1,2\r", [{ a: "1", b: "2" }]],
    ["no newline at the end", "a,b\n1,2", [{ a: "1", b: "2" }]],
    ["empty trailing lines ignored", "a\n1\n\n\n", [{ a: "1" }]],
    ["an empty line between rows ignored", "a,b\n1,2\n\n3,4\n", [{ a: "1", b: "2" }, { a: "3", b: "4" }]],
    ["a UTF-8 BOM", "\uFEFFid,name\n1,Zoë\n", [{ id: "1", name: "Zoë" }]],
    ["quoted field with a comma", 'a,b\n"x, y",2\n', [{ a: "x, y", b: "2" }]],
    ["escaped quotes", 'q\n"say ""hi"""\n', [{ q: 'say "hi"' }]],
    ["line break inside quotes (LF)", 'a,b\n"line1\nline2",2\n', [{ a: "line1\nline2", b: "2" }]],
    ["line break inside quotes (CRLF kept)", 'a\r\n"l1\r\nl2"\r\n', [{ a: "l1\r\nl2" }]],
    ["empty quoted field", 'a,b\n"",2\n', [{ a: "", b: "2" }]],
    ["empty unquoted fields", "a,b,c\n,,\n", [{ a: "", b: "", c: "" }]],
    ["a quoted empty line is a row", 'a\n""\n', [{ a: "" }]],
    ["whitespace is data", "a,b\n 1 , 2\n", [{ a: " 1 ", b: " 2" }]],
    ["a quote inside an unquoted field is kept", 'size\n5" pipe\n', [{ size: '5" pipe' }]],
    ["numbers and booleans stay strings", "n,f,b,z\n42,1.5,true,007\n", [{ n: "42", f: "1.5", b: "true", z: "007" }]],
    ["a short row leaves the rest empty", "a,b,c\n1\n", [{ a: "1", b: "", c: "" }]],
    ["header only", "a,b\n", []],
    ["empty text", "", []],
    ["quoted header names", '"first name","e-mail"\nAnn,a@x\n', [{ "first name": "Ann", "e-mail": "a@x" }]],
    ["__proto__ as a column is a plain key", "__proto__,a\nx,1\n", [{ ["__proto__"]: "x", a: "1" }]],
  ])("%s", (_name, text, rows) => {
    const parsed = parseDataFile(text);
    expect(parsed).toEqual(rows);
    expect(Object.getPrototypeOf(parsed[0] ?? {})).toBe(Object.prototype);
  });

  it("keeps a __proto__ column as data, not as the row's prototype", () => {
    const [row] = parseDataFile("__proto__\npolluted\n");
    expect(Object.keys(row)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each<[string, string, RegExp, { row?: number; line?: number }]>([
    ["more fields than the header", "a,b\n1,2\n3,4,5\n", /row 2 \(line 3\) has 3 fields but the header names 2 columns/, { row: 2, line: 3 }],
    ["line counted through a quoted line break", 'a,b\n"x\ny",2\n3,4,5\n', /row 2 \(line 4\)/, { row: 2, line: 4 }],
    ["an unclosed quote", 'a\n1\n"open\n', /line 3: a quoted field is never closed/, { line: 3 }],
    ["text after a closing quote", 'a,b\n"x"y,2\n', /line 2: "y" after the closing quote of field 1/, { line: 2 }],
    ["a header column without a name", "a,,c\n1,2,3\n", /column 2 without a name/, { line: 1 }],
    ["a duplicated header name", "id,name,id\n", /names the column "id" twice/, { line: 1 }],
  ])("refuses %s", (_name, text, message, where) => {
    const err = catchError(() => parseDataFile(text));
    expect(err.message).toMatch(message);
    expect({ row: err.row, line: err.line }).toMatchObject(where);
  });

  it("casts unquoted numbers like Newman when asked", () => {
    const rows = parseDataFile('i,f,z,q,s,e,h\n42,1.5,007,"42",abc,,0x1F\n', { csvValues: "newman" });
    expect(rows).toEqual([{ i: 42, f: 1.5, z: 7, q: "42", s: "abc", e: "", h: 0 }]);
  });

  it("takes a file that starts with [ as CSV when told so", () => {
    expect(parseDataFile("[x],y\n1,2\n", { format: "csv" })).toEqual([{ "[x]": "1", y: "2" }]);
  });
});

describe("JSON", () => {
  it("reads an array of objects, values keeping their JSON type", () => {
    expect(parseDataFile('[{"id":1,"name":"Ann","admin":true,"note":null},{"id":2}]')).toEqual([{ id: 1, name: "Ann", admin: true, note: null }, { id: 2 }]);
  });

  it("accepts an array already parsed", () => {
    expect(parseDataFile([{ a: "1" }, {}])).toEqual([{ a: "1" }, {}]);
  });

  it("turns nested values into their JSON text", () => {
    expect(parseDataFile([{ address: { city: "Oslo" }, tags: ["a", "b"] }])).toEqual([{ address: '{"city":"Oslo"}', tags: '["a","b"]' }]);
  });

  it("strips a BOM and surrounding whitespace", () => {
    expect(parseDataFile('\uFEFF \n[{"a":1}]\n')).toEqual([{ a: 1 }]);
  });

  it.each<[string, string | unknown[], RegExp, number | undefined]>([
    ["an object instead of an array", '{"a":1}', /must be an array of objects/, undefined],
    ["a string item", '[{"a":1},"b"]', /item 1 \(row 2\) is string/, 2],
    ["a null item", "[null]", /item 0 \(row 1\) is null/, 1],
    ["an array item", "[{}, {}, [1]]", /item 2 \(row 3\) is an array/, 3],
    ["a number item in a parsed array", [{}, 5], /item 1 \(row 2\) is number/, 2],
  ])("refuses %s, naming the index", (_name, input, message, row) => {
    const err = catchError(() => parseDataFile(input));
    expect(err.message).toMatch(message);
    expect(err.row).toBe(row);
  });

  it("says where JSON syntax breaks when the parser knows", () => {
    const err = catchError(() => parseDataFile('[\n  {"a": 1},\n  {"b": "\u0001"}\n]'));
    expect(err.message).toMatch(/^invalid JSON at line 3, column 10: Bad control character/);
    expect(err.line).toBe(3);
  });

  it("names a syntax error without a place too", () => {
    expect(catchError(() => parseDataFile('[{"a": x}]')).message).toMatch(/^invalid JSON: Unexpected token 'x'$/);
  });
});

describe("caps", () => {
  it(`refuses more than ${MAX_DATA_FILE_BYTES} bytes`, () => {
    expect(catchError(() => parseDataFile("a\n" + "x".repeat(MAX_DATA_FILE_BYTES))).message).toMatch(/larger than 10 MiB/);
  });

  it("counts bytes, not characters", () => {
    expect(catchError(() => parseDataFile("a\n" + "é".repeat(MAX_DATA_FILE_BYTES / 2))).message).toMatch(/larger than 10 MiB/);
  });

  it.each([
    ["a 4-byte character (a surrogate pair)", "😀", 4],
    ["a 3-byte character", "€", 3],
    ["a lone surrogate (written as U+FFFD)", "\ud800", 3],
  ])("counts %s as Buffer does, without Buffer (the browser previews with this parser)", (_name, char, bytes) => {
    const fits = Math.floor((MAX_DATA_FILE_BYTES - 2) / bytes);
    expect(Buffer.byteLength("a\n" + char.repeat(fits))).toBeLessThanOrEqual(MAX_DATA_FILE_BYTES);
    expect(parseDataFile("a\n" + char.repeat(fits))).toHaveLength(1);
    expect(catchError(() => parseDataFile("a\n" + char.repeat(fits + 1))).message).toMatch(/larger than 10 MiB/);
  });

  it(`takes exactly ${MAX_DATA_ROWS} CSV rows and refuses one more, naming it`, () => {
    const rows = (n: number) => "n\n" + "1\n".repeat(n);
    expect(parseDataFile(rows(MAX_DATA_ROWS))).toHaveLength(MAX_DATA_ROWS);
    const err = catchError(() => parseDataFile(rows(MAX_DATA_ROWS + 1)));
    expect(err.message).toMatch(/more than 100000 rows/);
    expect(err.row).toBe(MAX_DATA_ROWS + 1);
  });

  it("refuses too many JSON items", () => {
    expect(catchError(() => parseDataFile(Array.from({ length: MAX_DATA_ROWS + 1 }, () => ({})))).message).toMatch(/100001 rows; at most 100000/);
  });
});

function catchError(fn: () => unknown): DataFileError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DataFileError);
    return err as DataFileError;
  }
  throw new Error("expected a DataFileError");
}
