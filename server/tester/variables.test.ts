// Table-driven tests of `{{name}}` substitution: precedence, nesting, cycles,
// unresolved names, non-string values and Postman's dynamic variables.
import { describe, expect, it } from "vitest";
import { seededRandom } from "@/server/engine/testing";
import { DYNAMIC_VARIABLE_NAMES, dynamicVariable } from "./dynamic-variables";
import { emptyScopes, type VariableScopes } from "./scopes";
import { createSubstituter, substitute } from "./variables";

function scopes(parts: Partial<VariableScopes>): VariableScopes {
  return { ...emptyScopes(), ...parts };
}

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
const clock = { now: () => NOW };

describe("substitute", () => {
  const cases: Array<{ name: string; text: string; scopes: Partial<VariableScopes>; out: string; unresolved?: string[] }> = [
    { name: "plain text", text: "no variables here", scopes: {}, out: "no variables here" },
    { name: "one variable", text: "http://{{host}}/x", scopes: { globals: { host: "a.test" } }, out: "http://a.test/x" },
    { name: "collection over globals", text: "{{v}}", scopes: { globals: { v: "g" }, collection: { v: "c" } }, out: "c" },
    { name: "environment over collection", text: "{{v}}", scopes: { collection: { v: "c" }, environment: { v: "e" } }, out: "e" },
    { name: "data over environment", text: "{{v}}", scopes: { environment: { v: "e" }, data: { v: "d" } }, out: "d" },
    { name: "local over everything", text: "{{v}}", scopes: { globals: { v: "g" }, environment: { v: "e" }, data: { v: "d" }, local: { v: "l" } }, out: "l" },
    { name: "names with spaces, dots and dashes", text: "{{my var}}|{{a.b}}|{{x-y}}", scopes: { globals: { "my var": "1", "a.b": "2", "x-y": "3" } }, out: "1|2|3" },
    { name: "padding inside braces", text: "{{ host }}", scopes: { globals: { host: "h" } }, out: "h" },
    { name: "the spaced name when defined", text: "{{ host }}", scopes: { globals: { host: "h", " host ": "spaced" } }, out: "spaced" },
    { name: "unknown stays verbatim", text: "a{{missing}}b", scopes: {}, out: "a{{missing}}b", unresolved: ["missing"] },
    { name: "unknown listed once", text: "{{m}}{{m}}{{n}}", scopes: {}, out: "{{m}}{{m}}{{n}}", unresolved: ["m", "n"] },
    { name: "empty braces untouched", text: "{{}}", scopes: {}, out: "{{}}" },
    { name: "single braces untouched", text: "{a} {{b}", scopes: { globals: { a: "x", b: "y" } }, out: "{a} {{b}" },
    { name: "nested value", text: "{{url}}", scopes: { environment: { url: "http://{{host}}:{{port}}" }, globals: { host: "h", port: "81" } }, out: "http://h:81" },
    { name: "nested three deep", text: "{{a}}", scopes: { globals: { a: "<{{b}}>", b: "<{{c}}>", c: "z" } }, out: "<<z>>" },
    { name: "self reference stops", text: "{{a}}", scopes: { globals: { a: "x{{a}}" } }, out: "x{{a}}", unresolved: ["a"] },
    { name: "two-name cycle stops", text: "{{a}}", scopes: { globals: { a: "{{b}}", b: "{{a}}" } }, out: "{{a}}", unresolved: ["a"] },
    { name: "nested unknown", text: "{{a}}", scopes: { globals: { a: "x{{nope}}" } }, out: "x{{nope}}", unresolved: ["nope"] },
    { name: "number value", text: "n={{n}}", scopes: { local: { n: 42 } }, out: "n=42" },
    { name: "boolean value", text: "{{b}}", scopes: { local: { b: false } }, out: "false" },
    { name: "null value", text: "{{z}}", scopes: { local: { z: null } }, out: "null" },
    { name: "object value JSON", text: "{{o}}", scopes: { local: { o: { a: [1, "x"] } } }, out: '{"a":[1,"x"]}' },
    { name: "empty string is defined", text: "[{{e}}]", scopes: { globals: { e: "" } }, out: "[]" },
    { name: "defined beats dynamic", text: "{{$guid}}", scopes: { globals: { $guid: "mine" } }, out: "mine" },
    { name: "unknown dynamic stays", text: "{{$noSuchThing}}", scopes: {}, out: "{{$noSuchThing}}", unresolved: ["$noSuchThing"] },
    { name: "timestamp in seconds", text: "{{$timestamp}}", scopes: {}, out: String(Math.floor(NOW / 1000)) },
    { name: "ISO timestamp", text: "{{$isoTimestamp}}", scopes: {}, out: "2026-01-02T03:04:05.678Z" },
    { name: "dynamic inside a value", text: "{{stamp}}", scopes: { globals: { stamp: "t={{$timestamp}}" } }, out: `t=${Math.floor(NOW / 1000)}` },
  ];

  it.each(cases)("$name", ({ text, scopes: parts, out, unresolved = [] }) => {
    expect(substitute(text, scopes(parts), { clock, random: seededRandom(1) })).toEqual({ text: out, unresolved });
  });

  it("stops at the depth limit", () => {
    const globals: Record<string, string> = {};
    for (let i = 0; i < 30; i++) globals[`v${i}`] = `{{v${i + 1}}}`;
    globals.v30 = "end";
    const r = substitute("{{v0}}", scopes({ globals }), { maxDepth: 5 });
    expect(r.text).toBe("{{v5}}");
    expect(r.unresolved).toEqual(["v5"]);
    expect(substitute("{{v0}}", scopes({ globals }), { maxDepth: 40 }).text).toBe("end");
  });

  it("does not touch the caller's scopes", () => {
    const s = scopes({ globals: { a: "{{b}}", b: "1" } });
    const before = structuredClone(s);
    substitute("{{a}}{{$guid}}", s);
    expect(s).toEqual(before);
  });
});

describe("dynamic variables", () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const shapes: Array<[string, RegExp]> = [
    ["$guid", UUID],
    ["$randomUUID", UUID],
    ["$timestamp", /^\d{10}$/],
    ["$isoTimestamp", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/],
    ["$randomInt", /^\d{1,4}$/],
    ["$randomEmail", /^[^@\s]+@[^@\s]+\.[a-z]+$/i],
    ["$randomExampleEmail", /@example\.(com|org|net)$/],
    ["$randomFirstName", /^\S.*$/],
    ["$randomFullName", /^\S+.* \S+$/],
    ["$randomUserName", /^\S+$/],
    ["$randomPassword", /^\S{8,}$/],
    ["$randomPhoneNumber", /^\+?[\d\s().-]{7,}$/],
    ["$randomCity", /^\S.*$/],
    ["$randomCountry", /^\S.*$/],
    ["$randomCompanyName", /^\S.*$/],
    ["$randomUrl", /^https?:\/\/\S+$/],
    ["$randomIP", /^\d{1,3}(\.\d{1,3}){3}$/],
    ["$randomBoolean", /^(true|false)$/],
    ["$randomColor", /^[a-z ]+$/],
    ["$randomHexColor", /^#[0-9a-f]{6}$/i],
    ["$randomWord", /^\S+$/],
    ["$randomWords", /^\S+( \S+)+$/],
    ["$randomLoremSentence", /^[A-Z].*\.$/],
    ["$randomPrice", /^\d+(\.\d{1,2})?$/],
    ["$randomAlphaNumeric", /^[a-z0-9]$/i],
    ["$randomLatitude", /^-?\d+(\.\d+)?$/],
  ];

  it.each(shapes)("%s has Postman's shape", (name, shape) => {
    for (let i = 0; i < 20; i++) {
      const { text, unresolved } = substitute(`{{${name}}}`, emptyScopes());
      expect(unresolved).toEqual([]);
      expect(text).toMatch(shape);
    }
  });

  it("$randomInt stays within 0–1000", () => {
    const values = Array.from({ length: 500 }, () => Number(dynamicVariable("$randomInt")));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThanOrEqual(1000);
  });

  it("draws a new value at each occurrence", () => {
    const { text } = substitute("{{$guid}} {{$guid}} {{$randomInt}}-{{$randomInt}}-{{$randomInt}}-{{$randomInt}}", emptyScopes());
    const [a, b] = text.split(" ");
    expect(a).not.toBe(b);
    expect(new Set(text.split(" ")[2].split("-")).size).toBeGreaterThan(1);
  });

  it("is reproducible with a seeded Random and fixed Clock", () => {
    const run = () => substitute("{{$randomFullName}}|{{$randomInt}}|{{$randomUUID}}", emptyScopes(), { random: seededRandom(9), clock }).text;
    expect(run()).toBe(run());
  });

  it("lists every name once, each producing a value", () => {
    expect(new Set(DYNAMIC_VARIABLE_NAMES).size).toBe(DYNAMIC_VARIABLE_NAMES.length);
    expect(DYNAMIC_VARIABLE_NAMES.length).toBeGreaterThanOrEqual(50);
    for (const name of DYNAMIC_VARIABLE_NAMES) expect(dynamicVariable(name)?.length, name).toBeGreaterThan(0);
  });

  it("names are case-sensitive, as in Postman", () => {
    expect(dynamicVariable("$GUID")).toBeUndefined();
    expect(dynamicVariable("guid")).toBeUndefined();
  });
});

describe("createSubstituter", () => {
  it("substitutes keys and string leaves of a JSON value and collects unresolved names across calls", () => {
    const s = createSubstituter(scopes({ environment: { id: "7", k: "name" } }));
    expect(s.deep({ "{{k}}": "{{id}}", n: 1, list: ["{{id}}", true, null, "{{x}}"] })).toEqual({ name: "7", n: 1, list: ["7", true, null, "{{x}}"] });
    expect(s.text("{{y}}")).toBe("{{y}}");
    expect(s.unresolved()).toEqual(["x", "y"]);
  });
});
