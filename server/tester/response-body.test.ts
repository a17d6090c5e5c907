// Which answers are shown as text and which as base64, and how a cut body's
// broken last character is handled.
import { describe, expect, it } from "vitest";
import { encodeBody, isTextualContentType } from "./response-body";

describe("isTextualContentType", () => {
  it.each([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ["Application/JSON", true],
    ["application/problem+json", true],
    ["application/soap+xml; charset=utf-8", true],
    ["application/xml", true],
    ["image/svg+xml", true],
    ["text/plain", true],
    ["text/csv", true],
    ["text/html", true],
    ["application/javascript", true],
    ["application/x-www-form-urlencoded", true],
    ["application/graphql", true],
    ["application/yaml", true],
    ["application/x-yaml", true],
    ["application/vnd.oai.openapi+yaml", true],
    ["application/x-ndjson", true],
    ["application/octet-stream", false],
    ["image/png", false],
    ["application/pdf", false],
    ["multipart/form-data; boundary=x", false],
    ["", false],
    [undefined, false],
  ])("%s → %s", (type, textual) => {
    expect(isTextualContentType(type)).toBe(textual);
  });
});

describe("encodeBody", () => {
  const euro = Buffer.from("price: 5 €");
  it.each([
    ["empty", Buffer.alloc(0), "image/png", false, "", "utf8"],
    ["JSON", Buffer.from('{"a":1}'), "application/json", false, '{"a":1}', "utf8"],
    ["text typed as binary but valid UTF-8", Buffer.from("héllo"), "application/octet-stream", false, "héllo", "utf8"],
    ["untyped valid UTF-8", euro, undefined, false, "price: 5 €", "utf8"],
    ["NUL bytes → base64", Buffer.from([104, 0, 105]), undefined, false, Buffer.from([104, 0, 105]).toString("base64"), "base64"],
    ["invalid UTF-8 → base64", Buffer.from([0xc3, 0x28]), "application/octet-stream", false, Buffer.from([0xc3, 0x28]).toString("base64"), "base64"],
    ["textual type decodes even invalid bytes", Buffer.from([0x61, 0xff]), "text/plain", false, "a\uFFFD", "utf8"],
    ["charset honoured", Buffer.from([0x63, 0x61, 0x66, 0xe9]), "text/plain; charset=ISO-8859-1", false, "café", "utf8"],
    ["unknown charset falls back to UTF-8", Buffer.from("ok"), "text/plain; charset=x-nonsense", false, "ok", "utf8"],
    ["a cut in the middle of a character drops its start", euro.subarray(0, euro.length - 1), "text/plain", true, "price: 5 ", "utf8"],
    ["untyped text cut mid-character stays text", euro.subarray(0, euro.length - 2), undefined, true, "price: 5 ", "utf8"],
    ["untyped text not cut but broken → base64", euro.subarray(0, euro.length - 2), undefined, false, euro.subarray(0, euro.length - 2).toString("base64"), "base64"],
  ])("%s", (_name, bytes, type, truncated, body, bodyEncoding) => {
    expect(encodeBody(bytes, type, truncated)).toEqual({ body, bodyEncoding });
  });
});
