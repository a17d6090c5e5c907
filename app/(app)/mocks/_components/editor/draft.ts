// The mock being edited: one plain object in the shape of the Mock contract
// (MockInput), shared by the form and the JSON tab. These helpers only move
// values around; the contract (and the server) decide what is valid.
import { READ_ONLY_MOCK_FIELDS } from "@/server/contracts/mock-api";
import { MockInput, PROTOCOLS, type Protocol } from "@/server/contracts/mock";

export type Draft = Record<string, unknown>;
export type Path = (string | number)[];

export function getIn(obj: unknown, path: Path): unknown {
  let at: unknown = obj;
  for (const key of path) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** A copy of `obj` with `value` at `path`; undefined removes the key (arrays keep their length). */
export function setIn<T>(obj: T, path: Path, value: unknown): T {
  if (path.length === 0) return value as T;
  const [key, ...rest] = path;
  const base: Record<string | number, unknown> | unknown[] = Array.isArray(obj) ? [...obj] : obj && typeof obj === "object" ? { ...(obj as object) } : typeof key === "number" ? [] : {};
  const next = setIn((base as Record<string | number, unknown>)[key!], rest, value);
  if (next === undefined && !Array.isArray(base)) delete (base as Record<string | number, unknown>)[key!];
  else (base as Record<string | number, unknown>)[key!] = next;
  return base as T;
}

/** A stored mock as an editable draft: without the fields the server keeps. */
export function draftOf(stored: Record<string, unknown>): Draft {
  const out: Draft = { ...stored };
  for (const k of [...READ_ONLY_MOCK_FIELDS, "namespace", "endpoint"]) delete out[k];
  return out;
}

export function protocolOfDraft(draft: Draft): Protocol {
  return PROTOCOLS.find((p) => draft[p] !== undefined) ?? "http";
}

/** Text typed into a value box: JSON when it is a number, boolean, null, object or array, else the text itself. */
export function looseValue(text: string): unknown {
  const t = text.trim();
  if (t === "") return "";
  if (/^(-?\d|true$|false$|null$|[[{])/.test(t)) {
    try {
      return JSON.parse(t);
    } catch {}
  }
  return text;
}

export function looseText(value: unknown): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A number box's text as a number; empty removes the field. */
export function numberOrUndefined(text: string): number | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

export interface DraftProblem {
  path: string;
  message: string;
}

/** The contract's verdict on the draft, as "field: message" lines. */
export function checkDraft(draft: Draft): DraftProblem[] {
  const parsed = MockInput.safeParse(draft);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => ({ path: i.path.map(String).join(".") || "(mock)", message: i.message }));
}

export function prettyJson(value: unknown): string {
  return JSON.stringify(value ?? {}, null, 2);
}
