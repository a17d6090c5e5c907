// What the specification builders (mocks → OpenAPI, mocks → AsyncAPI) take
// and give, and the words both use for a mock's conditions. Pure like the
// generators: the service reads the mocks and records the export.
import type { z } from "zod";
import type { Condition, MockInput } from "@/server/contracts/mock";

export type SpecMockDef = z.output<typeof MockInput>;

export interface SpecMock {
  id: string;
  def: SpecMockDef;
  /** How lists show the mock ("GET /users/:id", "topic orders"), for warnings. */
  route: string;
}

export interface SpecOptions {
  namespace: string;
  title?: string;
  version?: string;
  serverUrl?: string;
}

export interface SpecWarning {
  mockId: string;
  route: string;
  reason: string;
}

export interface SpecResult {
  spec: Record<string, unknown>;
  warnings: SpecWarning[];
  /** Mocks the document expresses (some perhaps in part, with a warning). */
  exported: number;
}

/** Conditions in words ("header x-region equals \"eu\""): a specification has no field for them, so they go in a description. */
export function describeConditions(groups: [where: string, list: Condition[] | undefined][]): string | undefined {
  const parts = groups.flatMap(([where, list]) => (list ?? []).map((c) => `${where} ${c.path} ${c.assertAction}${c.value === undefined || ["any", "notEmpty", "empty"].includes(c.assertAction) ? "" : ` ${JSON.stringify(c.value)}`}`));
  return parts.length ? `when ${parts.join(" and ")}` : undefined;
}

/**
 * A channel key for an address: AsyncAPI 2.6 keys are URI templates, so the
 * characters a template cannot hold as literals (space, `>`, braces…) are
 * percent-encoded; the exact address is in `x-service-address`. A key already
 * taken gets "#2", "#3"…
 */
export function uniqueKey(taken: Record<string, unknown>, address: string): string {
  const key = address.replace(/[\x00-\x20"'%<>\\^`{|}\x7f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  let k = key;
  for (let n = 2; k in taken; n++) k = `${key}#${n}`;
  return k;
}
