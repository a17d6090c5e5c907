import { describe, expect, it } from "vitest";
import { SECRET_MASK } from "@/server/contracts/tester-request";
import { secretMasker } from "./mask-secrets";

describe("secretMasker", () => {
  it.each([
    ["plain occurrence", ["s3cr3t-token"], "Bearer s3cr3t-token", `Bearer ${SECRET_MASK}`],
    ["URL-encoded occurrence", ["a b&c=d"], "https://x/?k=a%20b%26c%3Dd", `https://x/?k=${SECRET_MASK}`],
    ["longest value first", ["abcd", "abcdef"], "abcdef", SECRET_MASK],
    ["short values left alone", ["ab"], "about", "about"],
    ["non-strings ignored", [42, null], "42", "42"],
    ["no secrets", [], "text", "text"],
  ])("%s", (_name, secrets, input, expected) => {
    expect(secretMasker(secrets as unknown[])(input)).toBe(expected);
  });
});
