// Which sidebar entry a path marks: the most specific one.
import { describe, expect, it } from "vitest";
import { activeHref } from "./nav-items";

describe("activeHref", () => {
  it.each([
    ["/tester", "/tester"],
    ["/tester/runner", "/tester/runner"],
    ["/tester/runs", "/tester/runs"],
    ["/tester/runs/0b1c", "/tester/runs"],
    ["/tester/environments", "/tester/environments"],
    ["/tester/tests", "/tester/tests"],
    ["/tester/schedules", "/tester/schedules"],
    ["/tester/schedules/abc", "/tester/schedules"],
    ["/tester/somewhere-else", "/tester"],
    ["/testers", null],
    ["/perf", "/perf"],
    ["/perf/new", "/perf"],
    ["/perf/results/0b1c", "/perf"],
    ["/perf/schedules", "/perf/schedules"],
    ["/perf/runners", "/perf/runners"],
    ["/mocks/123", "/mocks"],
    ["/settings/tokens", "/settings/tokens"],
    ["/", null],
  ])("%s → %s", (path, href) => expect(activeHref(path)).toBe(href));
});
