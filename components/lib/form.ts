import { z } from "zod";

/**
 * Text inputs always hold a string; contracts say "absent" or null for
 * "nothing". Wraps a contract's field so an empty input means `blank`.
 */
export function blankAs<T extends z.ZodType>(schema: T, blank: null | undefined) {
  return z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? blank : v), schema);
}
