// Regular expressions written by users (conditions `matches`, `not_matches`).
// They run on every stub request, so a pattern such as `^(a+)+$` must not be
// able to stall the process: patterns are compiled with re2js, a pure-JS port
// of RE2 whose matching time is linear in the input (no backtracking). RE2 is
// also what Go's regexp implements, so the syntax users bring from Go-based
// mock servers keeps its meaning. The price is that backreferences and
// lookaround are refused; callers turn InvalidRegexError into a 400 on save.
import { RE2JS, RE2JSException } from "re2js";

export const MAX_REGEX_LENGTH = 1000;

/** Compiled cache entries kept before the cache starts over (bounds memory, like parsePath). */
const MAX_CACHED = 10_000;

export interface SafeRegex {
  /** True when the pattern matches anywhere in `s` (anchor with ^ and $ for a whole-string match). */
  test(s: string): boolean;
}

export class InvalidRegexError extends Error {
  override readonly name = "InvalidRegexError";
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`invalid regular expression: ${reason}`);
  }
}

// Failures are cached too: a pattern read from a file at request time would
// otherwise be re-parsed, and rejected, on every request.
const cache = new Map<string, SafeRegex | InvalidRegexError>();

export function compileUserRegex(source: string): SafeRegex {
  const cached = cache.get(source);
  if (cached instanceof InvalidRegexError) throw cached;
  if (cached) return cached;
  const compiled = compileUncached(source);
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(source, compiled);
  if (compiled instanceof InvalidRegexError) throw compiled;
  return compiled;
}

function compileUncached(source: string): SafeRegex | InvalidRegexError {
  if (source.length > MAX_REGEX_LENGTH) {
    return new InvalidRegexError(source, `the pattern is ${source.length} characters long; at most ${MAX_REGEX_LENGTH} are allowed`);
  }
  try {
    const re = RE2JS.compile(source);
    return { test: (s: string) => re.test(s) };
  } catch (error) {
    if (error instanceof RE2JSException) return new InvalidRegexError(source, explain(error));
    throw error;
  }
}

/** RE2's messages name the offending fragment; say in plain words why the common JavaScript/PCRE features fail. */
function explain(error: RE2JSException): string {
  const fragment = "input" in error && typeof error.input === "string" ? error.input : "";
  const unsupported = "is not supported (patterns run on RE2, which guarantees linear-time matching)";
  if (/^\\[1-9]/.test(fragment) || fragment === "\\k" || fragment === "(?P") return `backreferences (${fragment}…) ${unsupported}`;
  if (fragment === "(?=" || fragment === "(?!") return `lookahead (${fragment}…) ${unsupported}`;
  if (fragment.startsWith("(?<=") || fragment.startsWith("(?<!")) return `lookbehind (${fragment.slice(0, 4)}…) ${unsupported}`;
  return error.message.replace(/^error parsing regexp: /, "");
}
