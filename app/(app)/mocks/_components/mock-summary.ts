// One line saying what a mock requires beyond its route, so two mocks on the
// same route can be told apart in lists: "body $.type equals express · header Authorization is not empty".
import { operatorLabel, WITHOUT_VALUE } from "./operator-labels";

type Cond = { path?: string; assertAction?: string; value?: unknown };

function describe(kind: string, list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return (list as Cond[]).map((c) => {
    const value = WITHOUT_VALUE.has(c.assertAction ?? "") ? "" : ` ${typeof c.value === "string" ? c.value : JSON.stringify(c.value ?? "")}`;
    return `${kind}${c.path ? ` ${c.path}` : ""} ${operatorLabel(c.assertAction ?? "")}${value}`.trim();
  });
}

/** The mock's conditions as short phrases; empty when it matches on its route alone. */
export function conditionPhrases(mock: Record<string, unknown>): string[] {
  const http = mock.http as Record<string, unknown> | undefined;
  if (http) return [...describe("body", http.conditions), ...describe("query", http.queryParams), ...describe("header", http.header)];
  for (const value of Object.values(mock)) {
    if (!value || typeof value !== "object" || Array.isArray(value)) continue;
    const block = value as Record<string, unknown>;
    const found = Object.entries(block).flatMap(([key, list]) => (/conditions$|^meta$/i.test(key) ? describe(key === "meta" ? "metadata" : key.replace(/Conditions$/, "") || "", list) : []));
    if (found.length) return found.map((s) => s.replace(/^conditions /, ""));
  }
  return [];
}
