// The condition operators (spec "Condition", assertAction table). Each is a
// pure function of the extracted field and the expected value that returns
// an exact verdict and a distance, after WireMock's matchers: 0 when the
// condition passes, in (0, 1] when it fails, smaller meaning "closer", so a
// request that matches no mock can be shown the nearest ones.
//
// Rules the spec leaves open, decided here:
// - Scalars compare loosely across string/number/boolean: "5" equals 5 and
//   "true" equals true, because query parameters and headers are always text
//   while users write `value: 5`. Only a string that is a plain decimal
//   literal counts as a number ("5", "-1.5", "2e3"; not "0x10", "", " ").
//   Two strings compare as strings ("05" does not equal "5"); null equals
//   only null.
// - An absent field fails every operator except: any and empty (absent counts
//   as empty, so empty is exactly the negation of notEmpty), and the three
//   negations not_equals, not_contains, not_matches, which pass. The spec says
//   so for not_matches; a user who writes "role not_equals admin" means "not
//   an admin" and expects a request without a role to qualify too.
import type { AssertAction } from "@/server/contracts/mock";
import type { Lookup } from "./json-path";
import { compileUserRegex, type SafeRegex } from "./safe-regex";

export interface OperatorResult {
  pass: boolean;
  distance: number;
}

/** An operator with its expected value bound (and its regex compiled): what runs per request. */
export type Check = (actual: Lookup) => OperatorResult;

const PASS: OperatorResult = Object.freeze({ pass: true, distance: 0 });
const FAR: OperatorResult = Object.freeze({ pass: false, distance: 1 });
/** Floor of a failing distance, so a miss never reads as a pass however close it is. */
const MIN_MISS = 0.001;

function miss(distance: number): OperatorResult {
  return { pass: false, distance: Math.min(1, Math.max(MIN_MISS, distance)) };
}

function isPresent(actual: Lookup): boolean {
  return actual.found && actual.value !== undefined;
}

// ---------------------------------------------------------------- values

type PlainObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A finite number, or a string holding a decimal literal; anything else (booleans included) is not a number. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (!DECIMAL.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** Text a regex runs against: strings as they are, other JSON values as JSON text. */
export function stringForm(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value) ?? "";
}

function scalarEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "string") return toNumber(b) === a;
  if (typeof a === "string" && typeof b === "number") return toNumber(a) === b;
  if (typeof a === "boolean" && typeof b === "string") return b === String(a);
  if (typeof a === "string" && typeof b === "boolean") return a === String(b);
  return false;
}

/**
 * A key shared by scalars that compare equal ("5", "5.0" and 5; "true" and
 * true), for hashing and sorting that must agree with equals. Scalars that
 * differ may share one ("5" and "05"), so a hash hit still needs the check.
 */
export function scalarKey(value: string | number | boolean | null): string {
  const n = toNumber(value);
  if (n !== undefined) return `n:${n}`;
  if (typeof value === "boolean" || value === "true" || value === "false") return `b:${String(value)}`;
  return typeof value === "string" ? `s:${value}` : "null";
}

/** Deep equality; key order irrelevant, array order relevant (sortArray removes it), scalars loose. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  if (Array.isArray(b) || isPlainObject(b)) return false;
  return scalarEqual(a, b);
}

/** `expected` is found in `actual`: object keys recursively, array elements by presence, scalars by equality. */
function isSubset(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) return Array.isArray(actual) && expected.every((e) => actual.some((a) => isSubset(a, e)));
  if (isPlainObject(expected)) {
    return isPlainObject(actual) && Object.keys(expected).every((k) => hasOwn(actual, k) && isSubset(actual[k], expected[k]));
  }
  return !Array.isArray(actual) && !isPlainObject(actual) && scalarEqual(actual, expected);
}

// ------------------------------------------------------------- distances

function numberDistance(a: number, b: number): number {
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return scale === 0 ? 0 : Math.min(1, Math.abs(a - b) / scale);
}

/** Share of the longer string not covered by the common prefix and suffix: linear, and small for one-character typos. */
function stringDistance(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 0;
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shorter && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  return 1 - (prefix + suffix) / longer;
}

function scalarDistance(a: unknown, b: unknown): number {
  if (scalarEqual(a, b)) return 0;
  if (typeof a === "number" || typeof b === "number") {
    const x = toNumber(a);
    const y = toNumber(b);
    if (x !== undefined && y !== undefined) return numberDistance(x, y);
  }
  if (typeof a === "boolean" || typeof b === "boolean" || a === null || b === null) return 1;
  return stringDistance(stringForm(a), stringForm(b));
}

/** 0 when deepEqual; otherwise the mean distance of the differing parts (a missing key or element counts 1). */
function valueDistance(a: unknown, b: unknown): number {
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.max(a.length, b.length);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += i < a.length && i < b.length ? valueDistance(a[i], b[i]) : 1;
    return n === 0 ? 0 : sum / n;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    let sum = 0;
    for (const k of keys) sum += hasOwn(a, k) && hasOwn(b, k) ? valueDistance(a[k], b[k]) : 1;
    return keys.size === 0 ? 0 : sum / keys.size;
  }
  if (Array.isArray(a) || Array.isArray(b) || isPlainObject(a) || isPlainObject(b)) return 1;
  return scalarDistance(a, b);
}

function subsetDistance(actual: unknown, expected: unknown): number {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return 1;
    if (expected.length === 0) return 0;
    let sum = 0;
    for (const e of expected) sum += closestElement(actual, e);
    return sum / expected.length;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return 1;
    const keys = Object.keys(expected);
    let sum = 0;
    for (const k of keys) sum += hasOwn(actual, k) ? subsetDistance(actual[k], expected[k]) : 1;
    return keys.length === 0 ? 0 : sum / keys.length;
  }
  if (Array.isArray(actual) || isPlainObject(actual)) return 1;
  return scalarDistance(actual, expected);
}

function closestElement(elements: unknown[], expected: unknown): number {
  let best = 1;
  for (const element of elements) {
    best = Math.min(best, subsetDistance(element, expected));
    if (best === 0) break;
  }
  return best;
}

/** Length of the longest prefix of `needle` found in `haystack`; presence is monotonic in the length, so bisect. */
function longestPrefixFound(haystack: string, needle: string): number {
  let lo = 0;
  let hi = needle.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (haystack.includes(needle.slice(0, mid))) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// ------------------------------------------------------------- operators

export function equals(actual: Lookup, expected: unknown): OperatorResult {
  if (!isPresent(actual)) return FAR;
  return deepEqual(actual.value, expected) ? PASS : miss(valueDistance(actual.value, expected));
}

export function notEquals(actual: Lookup, expected: unknown): OperatorResult {
  if (!isPresent(actual)) return PASS;
  return deepEqual(actual.value, expected) ? FAR : PASS;
}

/**
 * Substring when both sides are strings; recursive subset for objects; for an
 * array, some element holding the expected value (objects by subset, so
 * `{ "sku": "A" }` finds `{ "sku": "A", "qty": 2 }`) or, when the expected
 * value is itself an array, all of its elements present. Numbers and booleans
 * on either side mean exact (loose) equality: 100 does not contain 10, and
 * neither does the query text "100" contain the number 10.
 */
export function contains(actual: Lookup, expected: unknown): OperatorResult {
  if (!isPresent(actual)) return FAR;
  const a = actual.value;
  if (typeof a === "string" && typeof expected === "string") {
    return a.includes(expected) ? PASS : miss(1 - longestPrefixFound(a, expected) / expected.length);
  }
  if (Array.isArray(a)) {
    if (a.some((element) => isSubset(element, expected))) return PASS;
    if (Array.isArray(expected) && isSubset(a, expected)) return PASS;
    const asElement = a.length === 0 ? 1 : closestElement(a, expected);
    return miss(Array.isArray(expected) ? Math.min(asElement, subsetDistance(a, expected)) : asElement);
  }
  if (isPlainObject(a) || isPlainObject(expected) || Array.isArray(expected)) {
    return isSubset(a, expected) ? PASS : miss(subsetDistance(a, expected));
  }
  return scalarEqual(a, expected) ? PASS : miss(scalarDistance(a, expected));
}

export function notContains(actual: Lookup, expected: unknown): OperatorResult {
  if (!isPresent(actual)) return PASS;
  return contains(actual, expected).pass ? FAR : PASS;
}

/** Unanchored, like Go's MatchString: use ^…$ for the whole value. Absent fields fail. */
export function matches(actual: Lookup, regex: SafeRegex): OperatorResult {
  if (!isPresent(actual)) return FAR;
  return regex.test(stringForm(actual.value)) ? PASS : FAR;
}

/** The spec: an absent field matches (passes) not_matches. */
export function notMatches(actual: Lookup, regex: SafeRegex): OperatorResult {
  if (!isPresent(actual)) return PASS;
  return regex.test(stringForm(actual.value)) ? FAR : PASS;
}

function compareNumbers(actual: Lookup, expected: unknown, holds: (a: number, b: number) => boolean): OperatorResult {
  if (!isPresent(actual)) return FAR;
  const a = toNumber(actual.value);
  const b = toNumber(expected);
  if (a === undefined || b === undefined) return FAR;
  return holds(a, b) ? PASS : miss(numberDistance(a, b));
}

export const gt = (actual: Lookup, expected: unknown) => compareNumbers(actual, expected, (a, b) => a > b);
export const lt = (actual: Lookup, expected: unknown) => compareNumbers(actual, expected, (a, b) => a < b);
export const gte = (actual: Lookup, expected: unknown) => compareNumbers(actual, expected, (a, b) => a >= b);
export const lte = (actual: Lookup, expected: unknown) => compareNumbers(actual, expected, (a, b) => a <= b);

export function any(): OperatorResult {
  return PASS;
}

function isEmptyValue(value: unknown): boolean {
  if (value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return false;
}

/** Present, not null, not "", [] or {}; numbers and booleans (0 and false too) are values, hence non-empty. */
export function notEmpty(actual: Lookup): OperatorResult {
  return isPresent(actual) && !isEmptyValue(actual.value) ? PASS : FAR;
}

/** null, "", [], {} or absent: exactly the negation of notEmpty. A string of spaces is not empty. */
export function empty(actual: Lookup): OperatorResult {
  return notEmpty(actual).pass ? FAR : PASS;
}

// ------------------------------------------------------------ compilation

/** Actions whose `value` the spec ignores. */
const VALUELESS: ReadonlySet<AssertAction> = new Set<AssertAction>(["any", "notEmpty", "empty"]);

export function takesValue(action: AssertAction): boolean {
  return !VALUELESS.has(action);
}

/**
 * Binds the expected value once, when a mock is compiled, so the per-request
 * work is only the comparison. Throws InvalidRegexError for matches,
 * match and not_matches when the value is not a pattern RE2 accepts.
 */
export function compileOperator(action: AssertAction, expected: unknown): Check {
  switch (action) {
    case "equals":
      return (actual) => equals(actual, expected);
    case "not_equals":
      return (actual) => notEquals(actual, expected);
    case "contains":
      return (actual) => contains(actual, expected);
    case "not_contains":
      return (actual) => notContains(actual, expected);
    case "matches":
    case "match": {
      const regex = compileUserRegex(stringForm(expected));
      return (actual) => matches(actual, regex);
    }
    case "not_matches": {
      const regex = compileUserRegex(stringForm(expected));
      return (actual) => notMatches(actual, regex);
    }
    case "gt":
      return (actual) => gt(actual, expected);
    case "lt":
      return (actual) => lt(actual, expected);
    case "gte":
      return (actual) => gte(actual, expected);
    case "lte":
      return (actual) => lte(actual, expected);
    case "any":
      return any;
    case "notEmpty":
      return notEmpty;
    case "empty":
      return empty;
    default: {
      const unknownAction: never = action;
      throw new Error(`unknown assertAction ${String(unknownAction)}`);
    }
  }
}
