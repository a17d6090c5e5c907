// A raw message and its envelope as the runner sees them: decoded headers in
// both shapes, the null sender's fallback, addresses, and attachments.
import { describe, expect, it } from "vitest";
import { parseReceived } from "./parse-mail";

const raw = (lines: string[]) => Buffer.from(lines.join("\r\n"));

describe("parseReceived", () => {
  it("decodes encoded words, keeps repeated headers in order, and lists them lower-case for the engine", async () => {
    const parsed = await parseReceived(
      raw([
        "Received: from a.example.test",
        "Received: from b.example.test",
        'From: "=?UTF-8?Q?Bj=C3=B6rk?=" <bjork@example.test>',
        "To: Team <team@example.test>, ops@example.test",
        "Cc: carol@example.test",
        "Subject: =?UTF-8?B?SGVsbG8g4pyT?=",
        "X-Trace:",
        " folded value",
        "",
        "body text",
        "",
      ]),
      { from: "", to: ["team@example.test", "hidden@example.test"] },
    );
    expect(parsed.mail).toMatchObject({ from: "bjork@example.test", to: ["team@example.test", "hidden@example.test"], cc: ["carol@example.test"], subject: "Hello ✓", text: "body text\n", html: null });
    expect(parsed.engineHeaders.received).toEqual(["from a.example.test", "from b.example.test"]);
    expect(parsed.engineHeaders["x-trace"]).toEqual(["folded value"]);
    expect(parsed.mail.headers.received).toBe("from a.example.test, from b.example.test");
    expect(parsed.headerPairs.slice(0, 2)).toEqual([
      { name: "Received", value: "from a.example.test" },
      { name: "Received", value: "from b.example.test" },
    ]);
    expect(parsed.headerPairs).toContainEqual({ name: "Subject", value: "Hello ✓" });
    expect(parsed.headerFrom).toBe('"Björk" <bjork@example.test>');
    expect(parsed.headerTo).toBe('"Team" <team@example.test>, ops@example.test');
  });

  it("the envelope sender wins over the From header; attachments keep name, type and bytes", async () => {
    const parsed = await parseReceived(
      raw([
        "From: someone@example.test",
        "Subject: files",
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="b"',
        "",
        "--b",
        "Content-Type: text/html; charset=utf-8",
        "",
        "<p>Hi</p>",
        "--b",
        'Content-Type: text/csv; name="a.csv"',
        'Content-Disposition: attachment; filename="a.csv"',
        "Content-Transfer-Encoding: base64",
        "",
        Buffer.from("x,y\n").toString("base64"),
        "--b--",
        "",
      ]),
      { from: "bounce@example.test", to: ["x@example.test"] },
    );
    expect(parsed.mail.from).toBe("bounce@example.test");
    expect(parsed.mail.html).toBe("<p>Hi</p>");
    expect(parsed.mail.text.trim()).toBe("Hi");
    expect(parsed.mail.attachments).toEqual([{ filename: "a.csv", contentType: "text/csv", size: 4 }]);
    expect(parsed.attachments[0].content.toString()).toBe("x,y\n");
  });
});
