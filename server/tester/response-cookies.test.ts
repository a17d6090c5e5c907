// Set-Cookie as the response view lists it: attributes, defaults from the
// request URL, expiry forms, and cookies of several hops merged.
import { describe, expect, it } from "vitest";
import { mergeCookies, parseSetCookies } from "./response-cookies";

const NOW = new Date("2026-03-01T00:00:00.000Z");
const url = new URL("https://api.example.com/v1/users/7");

describe("parseSetCookies", () => {
  it.each([
    ["a session cookie with defaults from the URL", "sid=abc", { name: "sid", value: "abc", domain: "api.example.com", path: "/v1/users", httpOnly: false, secure: false }],
    ["every attribute", "id=1; Domain=example.com; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT; HttpOnly; Secure; SameSite=Strict", { name: "id", value: "1", domain: "example.com", path: "/", expires: "2037-10-21T07:28:00.000Z", httpOnly: true, secure: true, sameSite: "Strict" }],
    ["Max-Age wins over Expires", "m=1; Max-Age=60; Expires=Wed, 21 Oct 2037 07:28:00 GMT", { name: "m", expires: "2026-03-01T00:01:00.000Z" }],
    ["Max-Age=0 deletes: expired already", "gone=; Max-Age=0", { name: "gone", value: "", expires: "1970-01-01T00:00:00.000Z" }],
    ["SameSite=None", "x=1; SameSite=None; Secure", { sameSite: "None" }],
    ["SameSite=lax, any case", "x=1; samesite=lax", { sameSite: "Lax" }],
    ["a value with =", "t=a=b=c", { name: "t", value: "a=b=c" }],
  ])("%s", (_name, header, expected) => {
    const [cookie] = parseSetCookies([header], url, NOW);
    expect(cookie).toMatchObject(expected);
    if (!("expires" in expected)) expect(cookie.expires).toBeUndefined();
  });

  it("skips what is not a cookie", () => {
    expect(parseSetCookies(["", "   "], url, NOW)).toEqual([]);
  });
});

describe("mergeCookies", () => {
  it("a later cookie of the same name, domain and path replaces an earlier one", () => {
    const hop = parseSetCookies(["a=1; Path=/", "b=1; Path=/"], url, NOW);
    const final = parseSetCookies(["a=2; Path=/", "a=3; Path=/other"], url, NOW);
    expect(mergeCookies([hop, final]).map((c) => `${c.name}=${c.value}@${c.path}`)).toEqual(["b=1@/", "a=2@/", "a=3@/other"]);
  });
});
