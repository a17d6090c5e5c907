// Condition operators as words ("does not equal"); the contract's keys
// (not_equals, notEmpty) belong to the JSON, not to the console's text.
import type { AssertAction } from "@/server/contracts/mock";

export const OPERATOR_LABELS: Record<AssertAction, string> = {
  equals: "equals",
  contains: "contains",
  not_equals: "does not equal",
  not_contains: "does not contain",
  matches: "matches regex",
  match: "matches regex",
  not_matches: "does not match regex",
  gt: "greater than",
  lt: "less than",
  gte: "at least",
  lte: "at most",
  any: "anything",
  notEmpty: "is not empty",
  empty: "is empty",
};

/** Operators that compare with no value. */
export const WITHOUT_VALUE = new Set<string>(["any", "notEmpty", "empty"]);

export function operatorLabel(action: string): string {
  return OPERATOR_LABELS[action as AssertAction] ?? action;
}
