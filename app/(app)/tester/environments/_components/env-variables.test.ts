// The environment editor's conversion between the API's {name: value} +
// secret names and the variables table's rows, and what it refuses to save.
import { describe, expect, it } from "vitest";
import { SECRET_MASK, type Variable } from "@/server/contracts/tester-request";
import { environmentPayload, variablesOf } from "./env-variables";

const row = (key: string, value: string, more: Partial<Variable> = {}): Variable => ({ key, value, secret: false, enabled: true, ...more });

describe("variablesOf", () => {
  it("lists the variables in the API's order, marking the secret ones", () => {
    expect(variablesOf({ variables: { base: "http://x", token: SECRET_MASK }, secrets: ["token"] })).toEqual([row("base", "http://x"), row("token", SECRET_MASK, { secret: true })]);
  });
  it("round-trips through environmentPayload", () => {
    const env = { variables: { a: "1", token: SECRET_MASK }, secrets: ["token"] };
    expect(environmentPayload(variablesOf(env), env.secrets)).toEqual({ ok: true, variables: env.variables, secrets: ["token"], dropped: 0 });
  });
});

describe("environmentPayload", () => {
  const saved: { name: string; rows: Variable[]; stored?: string[]; expected: unknown }[] = [
    { name: "no rows", rows: [], expected: { ok: true, variables: {}, secrets: [], dropped: 0 } },
    { name: "plain and secret values", rows: [row("a", "1"), row("pw", "hunter2", { secret: true })], expected: { ok: true, variables: { a: "1", pw: "hunter2" }, secrets: ["pw"], dropped: 0 } },
    { name: "unticked rows are dropped and counted", rows: [row("a", "1"), row("b", "2", { enabled: false }), row("", "", { enabled: false })], expected: { ok: true, variables: { a: "1" }, secrets: [], dropped: 2 } },
    { name: "a stored secret sent back as the mask", rows: [row("pw", SECRET_MASK, { secret: true })], stored: ["pw"], expected: { ok: true, variables: { pw: SECRET_MASK }, secrets: ["pw"], dropped: 0 } },
    { name: "a stored secret made plain with a new value", rows: [row("pw", "visible")], stored: ["pw"], expected: { ok: true, variables: { pw: "visible" }, secrets: [], dropped: 0 } },
    { name: "names keep their spaces", rows: [row(" a ", "1")], expected: { ok: true, variables: { " a ": "1" }, secrets: [], dropped: 0 } },
    { name: "an empty value", rows: [row("a", "")], expected: { ok: true, variables: { a: "" }, secrets: [], dropped: 0 } },
  ];
  it.each(saved)("saves $name", ({ rows, stored, expected }) => {
    expect(environmentPayload(rows, stored ?? [])).toEqual(expected);
  });

  const refused: { name: string; rows: Variable[]; stored?: string[]; problems: string[] }[] = [
    { name: "a row without a name", rows: [row("", "1")], problems: ["A variable has no name"] },
    { name: "rows of blanks", rows: [row(" ", "1"), row("", "2")], problems: ["2 variables have no name"] },
    { name: "a name given twice (once)", rows: [row("a", "1"), row("a", "2"), row("a", "3")], problems: ["“a” is given twice"] },
    { name: "a renamed stored secret still masked", rows: [row("pw2", SECRET_MASK, { secret: true })], stored: ["pw"], problems: ["Type the value of “pw2” again: a secret's stored value stays with the name it was saved under"] },
    { name: "a stored secret made plain without a value", rows: [row("pw", SECRET_MASK)], stored: ["pw"], problems: ["“pw” is no longer secret: type its value (the stored one cannot be shown)"] },
    { name: "a too long name", rows: [row("k".repeat(256), "1")], problems: [`The name “${"k".repeat(40)}…” is longer than 255 characters`] },
    { name: "a too long value", rows: [row("a", "v".repeat(100_001))], problems: ["The value of “a” is longer than 100000 characters"] },
  ];
  it.each(refused)("refuses $name", ({ rows, stored, problems }) => {
    expect(environmentPayload(rows, stored ?? [])).toEqual({ ok: false, problems });
  });

  it("refuses more than 1000 variables", () => {
    const rows = Array.from({ length: 1001 }, (_, i) => row(`v${i}`, "x"));
    expect(environmentPayload(rows, [])).toEqual({ ok: false, problems: ["An environment holds at most 1000 variables"] });
  });
});
