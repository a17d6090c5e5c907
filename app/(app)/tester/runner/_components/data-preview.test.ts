// The data file preview: row counts, columns, first rows and the parser's own
// refusals (with row and line), for CSV and JSON.
import { describe, expect, it } from "vitest";
import { cellText, previewDataFile, PREVIEW_ROWS, tooLarge } from "./data-preview";

describe("previewDataFile", () => {
  const cases: { name: string; text: string; expected: ReturnType<typeof previewDataFile> }[] = [
    { name: "CSV with Newman's number casting", text: "user,age\nann,31\nbob,\"42\"\n", expected: { ok: true, format: "csv", rowCount: 2, columns: ["user", "age"], rows: [{ user: "ann", age: 31 }, { user: "bob", age: "42" }] } },
    { name: "CSV with a BOM and CRLF", text: "\uFEFFa,b\r\n1,x\r\n", expected: { ok: true, format: "csv", rowCount: 1, columns: ["a", "b"], rows: [{ a: 1, b: "x" }] } },
    { name: "a header without rows", text: "a,b\n", expected: { ok: true, format: "csv", rowCount: 0, columns: [], rows: [] } },
    { name: "JSON with keys that differ per row", text: ' [{"a":1},{"b":true,"a":null},{"c":{"d":1}}]', expected: { ok: true, format: "json", rowCount: 3, columns: ["a", "b", "c"], rows: [{ a: 1 }, { b: true, a: null }, { c: '{"d":1}' }] } },
    { name: "a CSV row longer than the header", text: "a\n1\n2,3\n", expected: { ok: false, message: "Row 2 (line 3) has 2 fields but the header names 1 columns" } },
    { name: "a CSV header naming a column twice", text: "a,a\n1,2\n", expected: { ok: false, message: 'The header (line 1) names the column "a" twice' } },
    { name: "JSON that is not an array", text: '{"a":1}', expected: { ok: false, message: "A JSON data file must be an array of objects, one per iteration" } },
    { name: "a JSON item that is not an object", text: "[1]", expected: { ok: false, message: "Item 0 (row 1) is number, not an object of variable names to values" } },
  ];
  it.each(cases)("$name", ({ text, expected }) => {
    expect(previewDataFile(text)).toEqual(expected);
  });

  it(`keeps the first ${PREVIEW_ROWS} rows and counts them all`, () => {
    const text = "n\n" + Array.from({ length: 12 }, (_, i) => `${i}\n`).join("");
    const p = previewDataFile(text);
    expect(p.ok && p.rowCount).toBe(12);
    expect(p.ok && p.rows.map((r) => r.n)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe("tooLarge and cellText", () => {
  it.each([
    [10 * 1024 * 1024, null],
    [10 * 1024 * 1024 + 1, "The file has 10.0 MiB; a data file may have at most 10 MiB"],
  ])("tooLarge(%i)", (bytes, message) => expect(tooLarge(bytes)).toBe(message));

  it.each([
    [null, ""],
    [undefined, ""],
    [0, "0"],
    [false, "false"],
    ["x", "x"],
  ])("cellText(%j) is %j", (value, text) => expect(cellText(value as never)).toBe(text));
});
