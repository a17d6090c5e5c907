// A protocol block's conditions (body `conditions`, `queryParams`, `header`)
// compiled once per mock version into one function that runs on every stub
// request: paths are parsed, regexes compiled and expected arrays sorted
// ahead of time, so evaluation only extracts and compares.
//
// Where the spec is silent:
// - A query parameter or header is a list of values: one value is compared as
//   that string, several as the list (so `contains` finds an element), none as
//   an absent field.
// - `decode: "base64"` accepts standard and URL-safe alphabets, padding
//   optional, and requires the bytes to be UTF-8 text; anything else fails the
//   condition (whatever the operator). Decoded text that is a JSON object or
//   array is compared as that value (a base64 JSON token can be matched with
//   `contains {"role":"admin"}`); other text stays text, like every query
//   value, so `contains` keeps its substring meaning and "5" still equals 5.
// - `valueFromFile`: the file content parsed as JSON when it is JSON (so a
//   file can hold 5 or "5"), else the raw text. A missing file fails the
//   condition.
// - A condition that needs a value and has neither `value` nor
//   `valueFromFile` never passes, rather than comparing against "nothing".
import type { AssertAction, Condition } from "@/server/contracts/mock";
import { getPath, type Lookup, parsePath } from "./json-path";
import { type Check, compileOperator, isPlainObject, scalarKey, takesValue } from "./operators";
import { InvalidRegexError } from "./safe-regex";
import type { ConditionBlock } from "./protocols/placement";
import type { EngineRequest } from "./types";

export type ConditionSource = "body" | "query" | "header";

export interface ConditionFailure {
  source: ConditionSource;
  /** As written in the condition (a header name keeps the user's casing). */
  path: string;
  assertAction: AssertAction;
  /** The value compared against: after valueFromFile and sortArray; the pattern for regex operators. */
  expected: unknown;
  /** The extracted value after decode and sortArray; undefined when not found. */
  actual: unknown;
  found: boolean;
  /** Set when the condition failed before any comparison (missing file, invalid base64…). */
  reason?: string;
}

// Declared beside the placers (a leaf), which hand it over: a type import back here would be a loop.
export type { ConditionBlock } from "./protocols/placement";

export interface ConditionDeps {
  /** Content of a template file, or undefined when there is none. */
  readFile?: (renderedPath: string) => string | undefined;
  /** Template processing of a valueFromFile path; the path is used as written without it. */
  renderPath?: (path: string, req: EngineRequest) => string;
}

export interface ConditionsResult {
  pass: boolean;
  /** Mean of the conditions' distances: 0 when all pass, up to 1. */
  distance: number;
  failures: ConditionFailure[];
}

export interface CompiledConditions {
  count: number;
  evaluate(req: EngineRequest): ConditionsResult;
}

type Outcome = { pass: true; distance: 0 } | { pass: false; distance: number; failure: ConditionFailure };
type CompiledCondition = (req: EngineRequest) => Outcome;
/** The expected value with its bound operator, or why there is nothing to compare with. */
type Resolved = { expected: unknown; check: Check } | { expected: unknown; reason: string };

const PASSED: Outcome = Object.freeze({ pass: true, distance: 0 });
const ABSENT: Lookup = Object.freeze({ found: false, value: undefined });

/**
 * Throws InvalidRegexError when a regex operator's inline value is not a
 * pattern RE2 accepts; saving a mock should call this to answer 400.
 */
export function compileConditions(block: ConditionBlock, deps: ConditionDeps = {}): CompiledConditions {
  const blockSort = block.sortArray ?? false;
  const compiled: CompiledCondition[] = [
    ...(block.conditions ?? []).map((c) => compileCondition("body", c, blockSort, deps)),
    ...(block.queryParams ?? []).map((c) => compileCondition("query", c, blockSort, deps)),
    ...(block.header ?? []).map((c) => compileCondition("header", c, blockSort, deps)),
  ];
  const count = compiled.length;
  return {
    count,
    evaluate(req) {
      const failures: ConditionFailure[] = [];
      let total = 0;
      for (const condition of compiled) {
        const outcome = condition(req);
        total += outcome.distance;
        if (!outcome.pass) failures.push(outcome.failure);
      }
      return { pass: failures.length === 0, distance: count === 0 ? 0 : total / count, failures };
    },
  };
}

function compileCondition(source: ConditionSource, condition: Condition, blockSort: boolean, deps: ConditionDeps): CompiledCondition {
  const { path, assertAction } = condition;
  const read = extractor(source, path);
  const decode = condition.decode === "base64";
  const sort = condition.sortArray ?? blockSort;
  const expectedOf = (raw: unknown) => (sort ? sortArraysDeep(raw) : raw);
  const fail = (actual: Lookup, expected: unknown, distance: number, reason?: string): Outcome => ({
    pass: false,
    distance,
    failure: { source, path, assertAction, expected, actual: actual.value, found: actual.found, ...(reason === undefined ? {} : { reason }) },
  });

  // The expected value and its check: bound now, or per request for a file.
  let resolve: (req: EngineRequest) => Resolved;
  if (!takesValue(assertAction)) {
    const bound = { expected: undefined, check: compileOperator(assertAction, undefined) };
    resolve = () => bound;
  } else if (condition.valueFromFile !== undefined) {
    resolve = fileResolver(condition.valueFromFile, assertAction, expectedOf, deps);
  } else if (condition.value === undefined) {
    const missing = { expected: undefined, reason: "the condition has no value to compare with" };
    resolve = () => missing;
  } else {
    const expected = expectedOf(condition.value);
    const bound = { expected, check: compileOperator(assertAction, expected) };
    resolve = () => bound;
  }

  return (req) => {
    const resolved = resolve(req);
    let actual = read(req);
    if (decode && actual.found && actual.value !== undefined) {
      const decoded = decodeBase64(actual.value);
      if (typeof decoded === "string") return fail(actual, resolved.expected, 1, decoded);
      actual = decoded;
    }
    if (sort && actual.found) actual = { found: true, value: sortArraysDeep(actual.value) };
    if ("reason" in resolved) return fail(actual, resolved.expected, 1, resolved.reason);
    const result = resolved.check(actual);
    return result.pass ? PASSED : fail(actual, resolved.expected, result.distance);
  };
}

// ------------------------------------------------------------- extraction

function extractor(source: ConditionSource, path: string): (req: EngineRequest) => Lookup {
  if (source === "body") {
    const segments = parsePath(path);
    return (req) => getPath(req.body, segments);
  }
  if (source === "query") return (req) => fromList(req.query, path);
  const name = path.toLowerCase();
  return (req) => fromList(req.headers, name);
}

function fromList(values: Record<string, string[]>, name: string): Lookup {
  if (!Object.prototype.hasOwnProperty.call(values, name)) return ABSENT;
  const list = values[name];
  if (list.length === 0) return ABSENT;
  return { found: true, value: list.length === 1 ? list[0] : list };
}

// ------------------------------------------------------------ valueFromFile

function fileResolver(
  filePath: string,
  action: AssertAction,
  expectedOf: (raw: unknown) => unknown,
  deps: ConditionDeps,
): (req: EngineRequest) => Resolved {
  // The rendered path may depend on the request, so the file is read per
  // request; parsing and compiling are redone only when its content changes.
  let lastContent: string | undefined;
  let lastResolved: Resolved | undefined;
  return (req) => {
    const { readFile, renderPath } = deps;
    if (!readFile) return { expected: undefined, reason: `valueFromFile "${filePath}": template files are not available here` };
    let rendered = filePath;
    let content: string | undefined;
    try {
      if (renderPath) rendered = renderPath(filePath, req);
      content = readFile(rendered);
    } catch (error) {
      return { expected: undefined, reason: `valueFromFile "${rendered}": ${error instanceof Error ? error.message : String(error)}` };
    }
    if (content === undefined) return { expected: undefined, reason: `valueFromFile "${rendered}": no such file` };
    if (content === lastContent && lastResolved) return lastResolved;
    const expected = expectedOf(parseJsonOrText(content));
    try {
      lastResolved = { expected, check: compileOperator(action, expected) };
    } catch (error) {
      if (!(error instanceof InvalidRegexError)) throw error;
      lastResolved = { expected, reason: `valueFromFile "${rendered}": ${error.message}` };
    }
    lastContent = content;
    return lastResolved;
  };
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// ------------------------------------------------------------------ base64

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The decoded value as a found Lookup, or the reason it cannot be decoded. */
function decodeBase64(value: unknown): Lookup | string {
  if (typeof value !== "string") return "decode base64: the value is not a string";
  const standard = value.replace(/-/g, "+").replace(/_/g, "/");
  if (!BASE64.test(standard)) return "decode base64: the value is not valid base64";
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, "="));
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return "decode base64: the decoded bytes are not UTF-8 text";
  }
  const start = text.trimStart()[0];
  if (start === "{" || start === "[") {
    try {
      return { found: true, value: JSON.parse(text) };
    } catch {}
  }
  return { found: true, value: text };
}

// ---------------------------------------------------------------- sortArray

/**
 * Arrays at every depth sorted by a canonical form of their elements (stable).
 * The form is order-free for object keys and treats a numeric string like its
 * number, so the two sides line up the same way equals compares them.
 */
function sortArraysDeep(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value
      .map((element) => {
        const sorted = sortArraysDeep(element);
        return { sorted, key: JSON.stringify(canonical(sorted)) };
      })
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((entry) => entry.sorted);
  }
  if (isPlainObject(value)) {
    // fromEntries defines own properties, so a "__proto__" key from JSON stays a plain key.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sortArraysDeep(v)]));
  }
  return value;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return { a: value.map(canonical) };
  if (isPlainObject(value)) {
    return {
      o: Object.keys(value)
        .sort()
        .map((k) => [k, canonical(value[k])]),
    };
  }
  return scalarKey(value as string | number | boolean | null);
}
