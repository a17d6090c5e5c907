import { describe, expect, it } from "vitest";
import { cronError, describeCron, nextOccurrences, occurrencesBetween, timezoneError } from "./cron-schedule";

describe("cron expressions of schedules", () => {
  it.each([
    ["0 9 * * 1-5", null],
    ["*/15 * * * *", null],
    ["@daily", null],
    ["61 * * * *", /minute/],
    ["* * *", /five fields/],
    ["*/5 * * * * *", /five fields/],
    ["", /empty/],
  ])("%s", (expr, expected) => {
    const err = cronError(expr);
    if (expected === null) expect(err).toBeNull();
    else expect(err).toMatch(expected);
  });

  it("validates IANA zones", () => {
    expect(timezoneError("Europe/Berlin")).toBeNull();
    expect(timezoneError("UTC")).toBeNull();
    expect(timezoneError("Mars/Olympus")).toMatch(/IANA/);
  });

  it("computes occurrences in the schedule's zone, across a DST change", () => {
    const runs = nextOccurrences("0 9 * * 1-5", "Europe/Berlin", new Date("2026-03-27T00:00:00Z"), 3).map((d) => d.toISOString());
    expect(runs).toEqual(["2026-03-27T08:00:00.000Z", "2026-03-30T07:00:00.000Z", "2026-03-31T07:00:00.000Z"]);
  });

  it("lists occurrences in a window, bounded", () => {
    const from = new Date("2026-01-01T00:00:00Z");
    expect(occurrencesBetween("*/10 * * * *", "UTC", from, new Date("2026-01-01T01:00:00Z"), 100)).toHaveLength(6);
    expect(occurrencesBetween("* * * * *", "UTC", from, new Date("2026-01-02T00:00:00Z"), 5)).toHaveLength(5);
  });

  it("describes common shapes", () => {
    expect(describeCron("0 9 * * 1-5")).toBe("on weekdays at 09:00");
    expect(describeCron("*/15 * * * *")).toBe("every 15 minutes");
    expect(describeCron("30 2 * * 0")).toBe("every Sunday at 02:30");
    expect(describeCron("1,2 3 4 5 6")).toBeNull();
  });
});
