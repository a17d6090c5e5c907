// Escaping for the reports: what is stripped, what is kept, what is escaped.
import { describe, expect, it } from "vitest";
import { cleanText, html, xmlAttr, xmlText } from "./text-escape";

describe("cleanText", () => {
  it.each<[string, string, string]>([
    ["keeps tab, LF and CR", "a\tb\nc\r\nd", "a\tb\nc\r\nd"],
    ["strips C0 controls", "a\u0000b\u0007c\u000Bd\u001Fe", "abcde"],
    ["strips DEL and C1 controls", "a\u007Fb\u0085c\u009Fd", "abcd"],
    ["strips terminal colour codes whole", "\u001B[1m\u001B[31mred\u001B[39m\u001B[22m and \u001B[2Kcleared", "red and cleared"],
    ["keeps emoji (surrogate pairs)", "ok 👍 ☺", "ok 👍 ☺"],
    ["strips lone surrogates", "a\uD800b\uDC00c", "abc"],
    ["strips U+FFFE and U+FFFF", "a\uFFFEb\uFFFFc", "abc"],
    ["keeps other text as is", "Zoë <b> & ]]>", "Zoë <b> & ]]>"],
  ])("%s", (_name, text, clean) => {
    expect(cleanText(text)).toBe(clean);
  });
});

describe("escaping", () => {
  it("escapes element content, > included so ]]> never appears", () => {
    expect(xmlText(`<a href="x">&]]></a>`)).toBe(`&lt;a href="x"&gt;&amp;]]&gt;&lt;/a&gt;`);
  });

  it("escapes attributes, keeping line breaks and tabs as references", () => {
    expect(xmlAttr(`"q" 'a' <&>\tx\ny\rz`)).toBe("&quot;q&quot; &apos;a&apos; &lt;&amp;&gt;&#9;x&#10;y&#13;z");
  });

  it("escapes HTML for content and quoted attributes alike", () => {
    expect(html(`<img src="x" onerror='y'>&`)).toBe("&lt;img src=&quot;x&quot; onerror=&#39;y&#39;&gt;&amp;");
    expect([html(null), html(undefined), html(404)]).toEqual(["", "", "404"]);
  });
});
