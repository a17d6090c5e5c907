// VUs as contexts of shared isolates (shared-isolate.ts): the same results as
// an isolate per VU, and the limits that now hold for all the VUs of an
// isolate at once (a runaway, a hoard, a stop). The rest of the engine's
// tests run in this mode too (it is the default).
import { describe, expect, it } from "vitest";
import { useTarget } from "@/server/testing/load-target";
import { type LoadRunResult, runLoadTest, type VuMode } from "./engine";

const target = useTarget((s) =>
  s.path.startsWith("/slow") ? { body: "slow", delayMs: 200 } : s.path.startsWith("/missing") ? { status: 404, body: "no" } : s.path === "/moved" ? { status: 302, headers: { location: "/t/moved" } } : { body: JSON.stringify({ path: s.path }) },
);

const run = (source: string, vuMode: VuMode, extra: Partial<Parameters<typeof runLoadTest>[0]> = {}) => runLoadTest({ source, env: { BASE: target.base }, vuMode, ...extra });

/** A run's counts that do not depend on timing. */
function counts(r: LoadRunResult) {
  const m = r.summary.metrics;
  return {
    status: r.status,
    requests: m.http_reqs.values.count,
    iterations: m.iterations.values.count,
    failed: m.http_req_failed.values.passes,
    checks: [m.checks.values.passes, m.checks.values.fails],
    custom: m.pages?.values.count,
    groups: JSON.stringify(r.summary.root_group),
    logs: [...r.logs].sort(),
  };
}

// A script in the style of k6's documentation: groups (nested, with waits inside), checks, custom metrics, batch, a response callback, __VU/__ITER.
const DOC_SCRIPT = `import http from 'k6/http';
import { check, group, sleep } from 'k6';
import { Counter } from 'k6/metrics';
const pages = new Counter('pages');
export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 4, iterations: 3 } } };
function visit(path) {
  const r = http.get(__ENV.BASE + path, { tags: { name: 'visit' } });
  pages.add(1);
  return r;
}
export default function () {
  group('front', function () {
    const r = visit('/home?vu=' + __VU);
    check(r, { 'home 200': (x) => x.status === 200, 'echoes': (x) => x.json('path') === '/home?vu=' + __VU });
    group('inner', () => {
      const [a, b] = http.batch([__ENV.BASE + '/a', ['GET', __ENV.BASE + '/missing']]);
      check(a, { 'batch a': (x) => x.status === 200 });
      check(b, { 'batch b 404': (x) => x.status === 404 });
    });
  });
  http.setResponseCallback(http.expectedStatuses(200, 404));
  const named = http.batch({ one: __ENV.BASE + '/one' });
  check(named.one, { 'named batch': (x) => x.status === 200, 'request shown': (x) => JSON.parse(JSON.stringify(x)).request.url === __ENV.BASE + '/one' && x.request.method === 'GET' && x.timings.duration >= 0 });
  sleep(0.01);
  console.log('vu', __VU, 'iter', __ITER);
}`;

describe("VUs in shared isolates", () => {
  it("run a documentation-style script with the same results as an isolate per VU", async () => {
    const shared = await run(DOC_SCRIPT, "shared");
    const isolated = await run(DOC_SCRIPT, "isolate");
    expect(shared.engine).toBe("VUs share isolates");
    expect(isolated.engine).toBe("one isolate per VU (asked for)");
    expect(counts(shared)).toEqual(counts(isolated));
    const c = counts(shared);
    expect(c).toMatchObject({ status: "passed", requests: 48, iterations: 12, custom: 12, checks: [72, 0] });
    // The first iteration's 404 counts as failed; from then on each VU's response callback expects it.
    expect(c.failed).toBe(4);
    expect(c.logs).toHaveLength(12);
    expect(c.logs).toContain("info [VU 3] vu 3 iter 2");
    const front = shared.summary.root_group.groups.find((g) => g.name === "front")!;
    expect(front.checks.map((x) => [x.name, x.passes])).toEqual([
      ["home 200", 12],
      ["echoes", 12],
    ]);
    expect(front.groups[0]).toMatchObject({ name: "inner", path: "::front::inner" });
    expect(Object.keys(shared.summary.metrics.group_duration.values)).toContain("p(95)");
  });

  it("a script the rewrite cannot prove runs with an isolate per VU, saying why", async () => {
    const r = await run(`import http from 'k6/http';\nexport const options = { iterations: 2 };\nexport default function () { [1, 2].forEach(() => http.get(__ENV.BASE + '/x')); }`, "shared");
    expect(r.status).toBe("passed");
    expect(r.summary.metrics.http_reqs.values.count).toBe(4);
    expect(r.engine).toMatch(/^one isolate per VU: the script cannot run with VUs sharing an isolate \(.+line 3\)$/);
    expect(r.logs).toEqual([`warn [engine] ${r.engine}`]);
  });

  it("a runaway VU stops its isolate, and the run fails naming the CPU limit", async () => {
    const t0 = Date.now();
    const r = await run(`import http from 'k6/http';\nexport const options = { vus: 5, duration: '20s' };\nexport default function () { http.get(__ENV.BASE + '/ok'); if (__VU === 2 && __ITER === 3) { for (;;) {} } }`, "shared", { limits: { iterationCpuMs: 400 } });
    expect(r.status).toBe("failed");
    expect(r.reason).toBe("iteration exceeded its CPU limit (0.4s); the VUs sharing its isolate were stopped");
    expect(r.summary.metrics.http_reqs.values.count).toBeGreaterThan(5);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it("a VU that hoards memory ends its isolate's VUs; the run fails and ends", async () => {
    const t0 = Date.now();
    const r = await run(`import http from 'k6/http';\nexport const options = { vus: 3, duration: '20s' };\nconst hoard = [];\nexport default function () { http.get(__ENV.BASE + '/ok'); if (__VU === 1) for (let i = 0; i < 50; i++) hoard.push(new Array(1e5).fill(__ITER)); }`, "shared", { limits: { memoryMb: 16 } });
    expect(r.status).toBe("failed");
    expect(r.reason).toMatch(/^VU \d stopped: its isolate reached its memory limit \(48 MB, shared by the 3 VUs in it\)$/);
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it("a stop ends sleeping and waiting VUs within a second, keeping what was measured", async () => {
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 700);
    const t0 = Date.now();
    const r = await run(`import http from 'k6/http'; import { sleep } from 'k6';\nexport const options = { vus: 6, duration: '30s' };\nexport default function () { http.get(__ENV.BASE + (__VU % 2 ? '/slow' : '/ok')); sleep(30); }`, "shared", { signal: ctl.signal });
    expect(r.status).toBe("stopped");
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(r.summary.metrics.http_reqs.values.count).toBeGreaterThanOrEqual(3);
  });

  it("the responses and errors a VU sees are objects of its own context, and its errors' stacks show only the script", async () => {
    // The lease loop and request building run in the isolate's hub context; what reaches the script must still be its own kind of object.
    const r = await run(
      `import http from 'k6/http'; import { check } from 'k6';\nexport const options = { vus: 2, iterations: 4 };\nexport default function () {\n  const res = http.get(__ENV.BASE + '/own');\n  check(res, { 'own objects': (x) => x instanceof Object && x.timings instanceof Object && x.json() instanceof Object && x.request.headers instanceof Object });\n  if (__ITER === 1) throw new TypeError('boom ' + __VU);\n}`,
      "shared",
    );
    expect(r.summary.metrics.checks.values).toMatchObject({ passes: 4, fails: 0 });
    const messages = r.errors.map((e) => e.message).join("\n");
    expect(messages).toContain("TypeError: boom");
    expect(messages).toContain("script.js:6");
    expect(messages).not.toMatch(/k6-hub|k6-runtime/);
  });

  it("bodies built in a VU's context cross as bytes: ArrayBuffer, typed array, form object", async () => {
    // The hub builds the requests; an ArrayBuffer of a VU's context is not `instanceof` the hub's.
    const r = await run(
      `import http from 'k6/http';\nexport const options = { iterations: 1 };\nexport default function () {\n  http.put(__ENV.BASE + '/buffer', new Uint8Array([0, 1, 2, 255, 254]).buffer);\n  http.put(__ENV.BASE + '/view', new Uint8Array([9, 8, 7]).subarray(1));\n  http.post(__ENV.BASE + '/form', { a: 'b c' });\n}`,
      "shared",
    );
    expect(r.status).toBe("passed");
    const body = (path: string) => target.seen.find((s) => s.path === path)?.body;
    expect([...body("/buffer")!]).toEqual([0, 1, 2, 255, 254]);
    expect([...body("/view")!]).toEqual([8, 7]);
    expect(body("/form")!.toString()).toBe("a=b+c");
  });

  it("bare requests the hub sends by number get their own answers, past the hub's template limit, in and out of groups", async () => {
    // http.get(url) with no params is built once and posted by number (isolate/hub.ts RequestTemplate, at most 1,024 per hub).
    const r = await run(
      `import http from 'k6/http'; import { check, group } from 'k6';\nexport const options = { iterations: 1 };\nexport default function () {\n  for (let i = 0; i < 1100; i++) {\n    const path = '/t/' + (i % 1060);\n    check(http.get(__ENV.BASE + path), { 'its own answer': (x) => x.json('path') === path && x.url === __ENV.BASE + path });\n  }\n  group('g', () => { check(http.get(__ENV.BASE + '/t/1'), { 'in the group': (x) => x.json('path') === '/t/1' }); });\n  check(http.get(__ENV.BASE + '/moved'), { 'the redirect target as its url': (x) => x.url === __ENV.BASE + '/t/moved' && x.json('path') === '/t/moved' });\n}`,
      "shared",
    );
    expect(r.status).toBe("passed");
    expect(r.summary.metrics.checks.values).toMatchObject({ passes: 1102, fails: 0 });
    expect(r.summary.metrics.http_reqs.values.count).toBe(1103);
    expect(r.summary.root_group.groups.find((g) => g.name === "g")?.checks).toMatchObject([{ name: "in the group", passes: 1 }]);
  });

  it("many VUs fill more than one shared isolate, each VU with its own globals", async () => {
    const r = await run(`import http from 'k6/http';\nlet mine = 0;\nexport const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 120, iterations: 2 } } };\nexport default function () { mine++; http.get(__ENV.BASE + '/n'); if (mine !== __ITER + 1) throw new Error('state leaked between VUs'); }`, "shared");
    expect(r.status).toBe("passed");
    expect(r.summary.metrics.iterations.values.count).toBe(240);
    expect(r.summary.metrics.vus_max.values.value).toBe(120);
  });
});
