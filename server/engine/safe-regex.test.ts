import { describe, expect, it } from "vitest";
import { compileUserRegex, InvalidRegexError, MAX_REGEX_LENGTH } from "./safe-regex";

describe("compileUserRegex: ordinary patterns", () => {
  it.each([
    ["abc", "xxabcxx", true],
    ["^abc$", "xxabcxx", false],
    ["^abc$", "abc", true],
    ["^[a-z]+\\d{2,3}$", "order123", true],
    ["^[a-z]+\\d{2,3}$", "order1", false],
    ["(?i)^hello$", "HeLLo", true],
    ["^hello$", "HeLLo", false],
    ["^\\w+@\\w+\\.com$", "ann@example.com", true],
    ["^(GET|POST)$", "PUT", false],
    ["(?P<id>\\d+)", "id=42", true],
    ["(?s)a.b", "a\nb", true],
    ["a.b", "a\nb", false],
    ["^é.$", "éa", true],
    ["", "anything", true],
  ])("%s against %j → %s", (pattern, input, expected) => {
    expect(compileUserRegex(pattern).test(input)).toBe(expected);
  });
});

describe("compileUserRegex: hostile patterns run in linear time", () => {
  // A test timeout cannot interrupt a synchronous match, so the bound is
  // measured around the call itself. A backtracking engine needs seconds for
  // 30 characters of ^(a+)+$ and would never finish these inputs; RE2 takes a
  // few milliseconds. The bound is generous because the machine is shared.
  const BOUND_MS = 250;

  it.each([
    ["^(a+)+$", "a".repeat(50_000) + "!"],
    ["(x+x+)+y", "x".repeat(50_000)],
    ["^(.*a){20}$", "a".repeat(19) + "b".repeat(50_000)],
    ["^(a|aa)+$", "a".repeat(50_000) + "!"],
    ["^(\\w+\\s?)*$", "word ".repeat(10_000) + "!"],
  ])("%s against a hostile input stays under the bound", (pattern, input) => {
    const regex = compileUserRegex(pattern);
    const started = performance.now();
    const matched = regex.test(input);
    const elapsed = performance.now() - started;
    expect(matched).toBe(false);
    expect(elapsed).toBeLessThan(BOUND_MS);
  });
});

describe("compileUserRegex: refused patterns", () => {
  it.each([
    ["(a)\\1", /backreferences/],
    ["(?<n>a)\\k<n>", /backreferences/],
    ["foo(?=bar)", /lookahead/],
    ["foo(?!bar)", /lookahead/],
    ["(?<=foo)bar", /lookbehind/],
    ["(?<!foo)bar", /lookbehind/],
    ["[a-z", /missing closing \]/],
    ["a**", /nested repetition/],
    ["x".repeat(MAX_REGEX_LENGTH + 1), /at most 1000/],
  ])("%s", (pattern, reason) => {
    let caught: unknown;
    try {
      compileUserRegex(pattern);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidRegexError);
    const error = caught as InvalidRegexError;
    expect(error.message).toMatch(reason);
    expect(error.pattern).toBe(pattern);
  });

  it("accepts a pattern of exactly the maximum length", () => {
    expect(compileUserRegex("a".repeat(MAX_REGEX_LENGTH)).test("a".repeat(MAX_REGEX_LENGTH))).toBe(true);
  });

  it("refuses a cached invalid pattern again", () => {
    expect(() => compileUserRegex("(?=x)")).toThrow(InvalidRegexError);
    expect(() => compileUserRegex("(?=x)")).toThrow(InvalidRegexError);
  });
});

describe("compileUserRegex: cache", () => {
  it("returns the same compiled object for the same source", () => {
    expect(compileUserRegex("^cached$")).toBe(compileUserRegex("^cached$"));
  });
});
