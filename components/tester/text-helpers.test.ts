// The tester's text helpers, one table per helper: Beautify of JSON (with
// placeholders) and XML, bulk edit of key/value rows, and {{variable}} splitting.
import { describe, expect, it } from "vitest";
import { formatJson, formatXml } from "./beautify";
import { bulkTextToRows, rowsToBulkText } from "./bulk-edit";
import { base64Bytes, formatBytes, formatMs } from "./format";
import { splitTemplate, unknownVariables } from "./template-variables";

describe("formatJson", () => {
  it.each([
    ['{"a":1}', '{\n  "a": 1\n}'],
    ['{"id":{{id}},"tags":[{{tag}}]}', '{\n  "id": {{id}},\n  "tags": [\n    {{tag}}\n  ]\n}'],
    ['{"s":"x {{y}} \\" z"}', '{\n  "s": "x {{y}} \\" z"\n}'],
    ["   ", "   "],
    ["{bad", null],
    ['{"a":1', null],
  ])("%s", (input, out) => expect(formatJson(input)).toBe(out));
});

describe("formatXml", () => {
  it.each([
    ["<a><b>1</b><c/></a>", "<a>\n  <b>1</b>\n  <c/>\n</a>"],
    ['<?xml version="1.0"?><r><e></e></r>', '<?xml version="1.0"?>\n<r>\n  <e></e>\n</r>'],
    ["<a><!-- note --><b><![CDATA[x<y]]></b></a>", "<a>\n  <!-- note -->\n  <b>\n    <![CDATA[x<y]]>\n  </b>\n</a>"],
    ["not xml", null],
    ["<a><b></a>", null],
  ])("%s", (input, out) => expect(formatXml(input)).toBe(out));
});

describe("bulk edit", () => {
  const before = [{ key: "a", value: "0", enabled: true, description: "kept", secret: true }];
  it.each([
    ["a: 1", [{ key: "a", value: "1", enabled: true, description: "kept", secret: true }]],
    ["//b:2", [{ key: "b", value: "2", enabled: false }]],
    ["// c : x:y ", [{ key: "c", value: "x:y", enabled: false }]],
    ["flag\n\n", [{ key: "flag", value: "", enabled: true }]],
  ])("%j", (text, rows) => expect(bulkTextToRows(text, before)).toEqual(rows));

  it("writes rows back as lines", () => {
    expect(rowsToBulkText([{ key: "a", value: "1", enabled: true }, { key: "b", value: "", enabled: false }])).toBe("a: 1\n//b:");
  });
});

describe("splitTemplate", () => {
  const vars = { base: "http://x", empty: "" };
  it.each([
    ["{{base}}/a", [{ kind: "variable", text: "{{base}}", name: "base", known: true }, { kind: "text", text: "/a" }]],
    ["{{empty}}", [{ kind: "variable", text: "{{empty}}", name: "empty", known: true }]],
    ["{{$guid}}", [{ kind: "variable", text: "{{$guid}}", name: "$guid", known: true }]],
    ["{{ base }}", [{ kind: "variable", text: "{{ base }}", name: " base ", known: false }]],
    ["a{b}c", [{ kind: "text", text: "a{b}c" }]],
  ])("%s", (text, parts) => expect(splitTemplate(text, vars)).toEqual(parts));

  it("lists unknown names once", () => expect(unknownVariables("{{a}}{{base}}{{a}}{{b}}", vars)).toEqual(["a", "b"]));
});

describe("format", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1536, "1.50 KB"],
    [10 * 1024 * 1024, "10.0 MB"],
  ])("formatBytes(%d)", (n, out) => expect(formatBytes(n)).toBe(out));
  it.each([
    [0, "0 ms"],
    [0.5, "0.50 ms"],
    [245.4, "245 ms"],
    [1350, "1.35 s"],
    [125_000, "2 min 5 s"],
  ])("formatMs(%d)", (n, out) => expect(formatMs(n)).toBe(out));
  it.each([
    ["", 0],
    ["YQ==", 1],
    ["YWI=", 2],
    ["YWJj", 3],
  ])("base64Bytes(%s)", (b64, n) => expect(base64Bytes(b64)).toBe(n));
});
