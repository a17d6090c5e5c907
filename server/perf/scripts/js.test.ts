// Hostile data written as JavaScript source must evaluate back to itself:
// quotes, backticks, `${`, backslashes, line breaks, CR (which a template
// literal would turn into LF), U+2028, lone surrogates, "::" in labels.
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { Code, commentText, concat, expr, jsKey, jsString, jsText, jsValue, lit, safeLabel } from "./js";

const HOSTILE = [
  "",
  "plain",
  'a "quoted" word',
  "it's",
  "back`tick`",
  "${alert(1)}",
  "$${x}} and $ alone and { }",
  "back\\slash \\` \\${",
  "line\nbreak",
  "carriage\r\nreturn\r",
  "tab\tand \u0000 nul \u001b esc \u007f del",
  "line\u2028separator\u2029",
  "lone \ud800 high and \udc00 low, pair 😀",
  "`;process.exit(1);`",
  '"); require("child_process"); ("',
  "</script><script>",
  "x".repeat(100) + "\nlong multi-line text that is written as a template literal\n" + "`${}`",
];

const evaluate = (source: string) => vm.runInNewContext(source, { env: { A: "1", B: "two" } });

describe("js literals", () => {
  it.each(HOSTILE)("jsString and jsText give back %j", (s) => {
    expect(evaluate(jsString(s))).toBe(s);
    expect(evaluate(jsText(lit(s)))).toBe(s);
  });

  it.each(HOSTILE)("a template with expressions around %j keeps the text literal", (s) => {
    const t = concat(lit(s), expr("env.A"), lit(s), expr("env.B"), lit(s));
    expect(evaluate(jsText(t))).toBe(`${s}1${s}two${s}`);
  });

  it("lone surrogates are escapes, so the source is valid UTF-8", () => {
    const source = jsText(concat(lit("\ud800x"), expr("env.A")));
    expect(source).not.toMatch(/[\ud800-\udfff]/);
    expect(Buffer.from(source, "utf8").toString("utf8")).toBe(source);
  });

  it("object keys and values", () => {
    const value = { plain: 1, "with space": "a`b", __proto__x: null, list: ["${x}", true], nested: { code: new Code("env.A + env.B") } };
    expect(evaluate(`(${jsValue(value)})`)).toEqual({ plain: 1, "with space": "a`b", __proto__x: null, list: ["${x}", true], nested: { code: "1two" } });
    expect(jsKey("__proto__")).toBe('"__proto__"');
    expect(jsKey("a-b")).toBe('"a-b"');
    expect(jsKey("ok_1")).toBe("ok_1");
  });

  it("labels and comments cannot break out", () => {
    expect(safeLabel("a::b  c")).toBe("a: b c");
    expect(safeLabel("")).toBe("request");
    expect(commentText("x\ny\u2028z */")).toBe("x y z * /");
  });
});
