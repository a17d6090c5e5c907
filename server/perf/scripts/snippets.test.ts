// Every editor snippet is a script this engine takes as written: it
// compiles, its own options plan (scenarios, thresholds on custom metrics
// and tags), and one iteration runs against a real HTTP server without an
// error, sending what the snippet says.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectLoadScript } from "@/server/perf/k6/plan";
import { checkScript } from "@/server/perf/k6/vu";
import { SNIPPETS } from "./snippets";
import { runOnce, startTarget, type Target } from "./test-helpers";

const FILES = { "users.csv": "username,password\nann,pw1\nbob,pw2\n", "products.json": JSON.stringify([{ id: 1 }, { id: 2 }]) };

let target: Target;
beforeAll(async () => {
  target = await startTarget((s) => (s.path === "/auth/token" ? { body: '{"access_token":"tok"}' } : s.path === "/api/items" && s.method === "POST" ? { status: 201, body: '{"id":1}' } : undefined));
});
afterAll(() => target.close());

const expected: Record<string, string[]> = {
  "http-get": ["GET /api/items?page=1&limit=20"],
  "http-post-json": ["POST /api/items"],
  thresholds: ["GET /"],
  stages: ["GET /"],
  "constant-arrival-rate": ["GET /api/items"],
  groups: ["GET /api/items", "POST /api/cart"],
  "custom-metrics": ["POST /api/login"],
  "data-csv": ["POST /api/login"],
  "data-json": ["GET /api/items/*"],
  "setup-teardown": ["POST /auth/token", "GET /api/me", "POST /auth/logout"],
  batch: ["GET /api/items", "GET /api/categories", "POST /api/events"],
  tags: ["GET /api/items/*", "GET /"],
  "handle-summary": ["GET /"],
};

describe("snippets", () => {
  it("have unique ids, a title and a description each", () => {
    expect(new Set(SNIPPETS.map((s) => s.id)).size).toBe(SNIPPETS.length);
    expect(Object.keys(expected).sort()).toEqual(SNIPPETS.map((s) => s.id).sort());
    for (const s of SNIPPETS) expect(s.title && s.description, s.id).toBeTruthy();
  });

  it.each(SNIPPETS.map((s) => [s.id, s] as const))("%s compiles, plans and runs", async (id, s) => {
    expect(await checkScript(s.code)).toBeUndefined();
    // inspectLoadScript reads open()'s path as written; the run strips "./" as k6 does.
    const plan = await inspectLoadScript({ source: s.code, files: Object.fromEntries(Object.entries(FILES).flatMap(([k, v]) => [[k, v], [`./${k}`, v]])) });
    expect(plan.scenarios.length).toBeGreaterThan(0);
    target.seen.length = 0;
    const result = await runOnce(s.code, { env: { BASE_URL: target.base, USERNAME: "u", PASSWORD: "p" }, files: FILES });
    expect(target.seen.map((x) => `${x.method} ${x.path.replace(/\/\d+$/, "/*")}`).sort(), id).toEqual([...expected[id]].sort());
    if (id === "data-csv") expect(["ann", "bob"]).toContain(JSON.parse(target.seen[0].body.toString()).username);
    if (id === "setup-teardown") expect(target.seen.find((x) => x.path === "/api/me")?.headers.authorization).toBe("Bearer tok");
    if (id === "handle-summary") expect(result.handleSummary?.["p95.txt"]).toMatch(/^p\(95\) of http_req_duration: [\d.]+ ms\n$/);
    if (id === "custom-metrics") expect(Object.keys(result.summary.metrics)).toEqual(expect.arrayContaining(["login_time", "login_ok"]));
  });
});
