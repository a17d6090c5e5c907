// HAR recordings from real browser tools (Browsertime, Firefox, Chrome's
// shape) as k6 scripts, run on the real load engine: pages become groups
// with the recorded pauses between them, static assets are left out unless
// asked, recorded session cookies and computed headers are dropped, and the
// requests arrive as recorded. The recorded origin is __ENV.BASE_URL, so
// the run here points it at a local server (and `hosts` sends a third-party
// host there too).
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GeneratorInputError } from "@/server/generators/input-error";
import { inspectLoadScript } from "@/server/perf/k6/plan";
import { scriptFromHar } from "./from-har";
import { ScriptInputError } from "./script-input-error";
import { runOnce, startTarget, type Target } from "./test-helpers";

const fixture = (dir: string, name: string) => JSON.parse(readFileSync(path.join(import.meta.dirname, dir, name), "utf8"));
const threePages = () => fixture("__fixtures__", "browsertime-three-pages.har");
const firefox = () => fixture("__fixtures__", "firefox-sitespeed.har");
const tasks = () => fixture("../../generators/__fixtures__", "tasks-api.har");

let target: Target;
beforeAll(async () => {
  target = await startTarget((s) => (s.path === "/api/v1/tasks/999" ? { status: 404, body: "{}" } : undefined));
});
afterAll(() => target.close());

describe("scriptFromHar", () => {
  it("Browsertime: a group per page, the user's pauses between them, favicons left out", async () => {
    const g = scriptFromHar({ har: threePages() });
    expect(g.variables).toEqual([{ name: "BASE_URL", from: "BASE_URL", default: "http://127.0.0.1:8000", value: "http://127.0.0.1:8000", secret: false }]);
    expect(g.warnings.map((w) => w.message)).toEqual([
      "3 static asset requests (images, style sheets, scripts, fonts, media) left out; includeStatic keeps them",
      "3 request bodies were not recorded as text (binary or multipart): sent without a body",
    ]);
    // Page 1 starts 4.6 s after page 0's last answer, page 2 4.5 s after page 1's.
    expect([...g.script.matchAll(/sleep\(([\d.]+)\)/g)].map((m) => Number(m[1]))).toEqual([4.6, 4.5]);
    expect(g.script).not.toMatch(/favicon|Accept-Encoding|"Host"/i);
    expect((await inspectLoadScript({ source: g.script })).scenarios[0]).toMatchObject({ executor: "constant-vus", vus: 10 });

    target.seen.length = 0;
    const quick = scriptFromHar({ har: threePages(), thinkTime: false });
    expect(quick.script).not.toContain("sleep(");
    const result = await runOnce(quick.script, { env: { BASE_URL: target.base }, hosts: { "ocsp.digicert.com:80": `127.0.0.1:${target.port}` } });
    expect(target.seen.map((s) => `${s.method} ${s.headers.host === "ocsp.digicert.com" ? "ocsp " : ""}${s.path}`)).toEqual(
      Array(3).fill(["GET /redirect.html", "GET /index.html", "POST ocsp /"]).flat(),
    );
    const page = target.seen[1];
    expect(page.headers).toMatchObject({ accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "accept-language": "en-US,en;q=0.5", referer: "http://127.0.0.1:8000/redirect.html" });
    expect(page.headers["accept-encoding"]).toBeUndefined();
    expect(target.seen[2].headers["content-type"]).toBe("application/ocsp-request");
    expect(result.summary.root_group.groups.map((x) => [x.name, x.checks.map((c) => c.name)])).toEqual(
      ["Page 0", "Page 1", "Page 2"].map((p) => [p, ["GET /redirect.html: status is 200", "GET /index.html: status is 200", "POST /: status is 200"]]),
    );
    expect(result.summary.metrics.checks.values.fails).toBe(0);
  });

  it("Firefox: the page alone by default, its images and analytics with includeStatic", async () => {
    const pageOnly = scriptFromHar({ har: firefox(), options: { vus: 2, iterations: 4 } });
    expect(pageOnly.options).toEqual({ vus: 2, iterations: 4 });
    expect(pageOnly.warnings.map((w) => w.message)).toEqual(["11 static asset requests (images, style sheets, scripts, fonts, media) left out; includeStatic keeps them"]);
    expect(pageOnly.script.match(/http\.get\(/g)).toHaveLength(1);
    expect(pageOnly.script).toContain('group("New Tab", () => {');
    target.seen.length = 0;
    await runOnce(pageOnly.script, { env: { BASE_URL: target.base } });
    expect(target.seen.map((s) => s.path)).toEqual(["/"]);
    expect(target.seen[0].headers["user-agent"]).toBeDefined();

    const all = scriptFromHar({ har: firefox(), includeStatic: true });
    expect(all.warnings).toEqual([]);
    expect(all.script.match(/http\.get\(/g)).toHaveLength(12);
    // Third-party hosts keep their origin; only the recorded site is BASE_URL.
    expect(all.script).toContain('http.get("https://ssl.google-analytics.com/ga.js"');
    expect(all.script).toContain("http.get(`${__ENV.BASE_URL}/img/dashboard.png`");
  });

  it("Chrome's shape (no pages): bodies, statuses and credentials as recorded", async () => {
    const g = scriptFromHar({ har: tasks(), thinkTime: true });
    expect(g.script).not.toContain("group(");
    expect(g.script).not.toContain("sleep(");
    expect(g.warnings.map((w) => w.message)).toEqual([
      "1 static asset request (images, style sheets, scripts, fonts, media) left out; includeStatic keeps them",
      "the recording's Authorization / API key headers are written into the script as recorded: replace them with __ENV values before sharing it",
    ]);
    target.seen.length = 0;
    const result = await runOnce(g.script, { env: { BASE_URL: target.base } });
    const recorded = tasks().log.entries.filter((e: { request: { url: string } }) => !e.request.url.endsWith(".png"));
    expect(target.seen.map((s) => `${s.method} ${s.path}`)).toEqual(recorded.map((e: { request: { method: string; url: string } }) => `${e.request.method} ${new URL(e.request.url).pathname}${new URL(e.request.url).search}`));
    for (const [i, e] of recorded.entries()) {
      if (e.request.postData?.text) expect(target.seen[i].body.toString()).toBe(e.request.postData.text);
    }
    expect(target.seen.find((s) => s.headers.authorization)?.headers.authorization).toMatch(/^Bearer /);
    // Each request checks its recorded status; the server here answers 200 (and the recorded 404), so exactly the others fail. Status 0 (aborted) has no check.
    const failed = result.summary.root_group.checks.filter((c) => c.fails > 0).map((c) => c.name);
    expect(failed.sort()).toEqual(["DELETE /api/v1/tasks/22: status is 204", "GET /api/v1/users/me: status is 401", "POST /api/v1/tasks: status is 201", "POST /api/v1/tasks: status is 422"]);
    expect(result.summary.root_group.checks.find((c) => c.name === "GET /api/v1/tasks/999: status is 404")).toMatchObject({ passes: 1, fails: 0 });
  });

  it("hostile recorded text stays data; redirects replay as recorded; cookies and odd entries are left out", async () => {
    const entry = (request: Record<string, unknown>, status = 200, extra: Record<string, unknown> = {}) => ({ request: { headers: [], ...request }, response: { status, headers: [], content: {} }, ...extra });
    const body = '{"note":"`${globalThis.x=1}` \\" \u2028 end"}';
    const har = {
      log: {
        entries: [
          entry({ method: "POST", url: `http://app.example/save?q=${encodeURIComponent("a`b")}`, headers: [{ name: "Content-Type", value: "application/json" }, { name: "Cookie", value: "sid=1" }, { name: ":authority", value: "app.example" }], postData: { mimeType: "application/json", text: body } }),
          entry({ method: "GET", url: "http://app.example/old" }, 302, {}),
          entry({ method: "GET", url: "http://app.example/new" }),
          entry({ method: "POST", url: "http://app.example/form", postData: { mimeType: "application/x-www-form-urlencoded", params: [{ name: "a", value: "1 2" }, { name: "b`", value: "${x}" }] } }),
          entry({ method: "GET", url: "ws://app.example/socket" }),
          entry({ method: "GET", url: "not a url" }),
          entry({ method: "GET", url: "http://app.example/chat", headers: [{ name: "Upgrade", value: "websocket" }] }, 101),
        ],
      },
    };
    const g = scriptFromHar({ har });
    expect(g.warnings).toEqual([
      { message: "skipped: ws: is not HTTP(S)", pointer: "/log/entries/4" },
      { message: 'skipped: "not a url" is not a URL', pointer: "/log/entries/5" },
      { message: "skipped: a WebSocket (not supported by the load engine yet)", pointer: "/log/entries/6" },
      { message: "the recorded Cookie header was left out of 1 request: a recorded session would be replayed by every VU" },
    ]);
    expect(g.script).toContain("redirects: 0");
    target.seen.length = 0;
    await runOnce(g.script, { env: { BASE_URL: target.base } });
    expect(target.seen.map((s) => `${s.method} ${s.path}`)).toEqual(["POST /save?q=a%60b", "GET /old", "GET /new", "POST /form"]);
    expect(target.seen[0].body.toString()).toBe(body);
    expect(target.seen[0].headers.cookie).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(target.seen[3].body.toString()))).toEqual({ a: "1 2", "b`": "${x}" });
    expect((globalThis as { x?: unknown }).x).toBeUndefined();
  });

  it("a document that is not HAR, or has nothing to replay, is refused", () => {
    expect(() => scriptFromHar({ har: { log: {} } })).toThrow(GeneratorInputError);
    expect(() => scriptFromHar({ har: { log: { entries: [{ request: { method: "GET", url: "https://x.example/a.png", headers: [] }, response: { status: 200, headers: [], content: {} } }] } } })).toThrow(ScriptInputError);
  });
});
