// Saved load tests through the real route handlers: CRUD, the 400s a run
// would give (script line and column, the option or threshold named) at save
// time, references checked in the namespace, another namespace's id as 404,
// and running a config: its result names the config and shows in the
// config's history and trend, with __ENV from the saved values, the run's
// overrides and the config's API tester environment.
import { beforeAll, describe, expect, it } from "vitest";
import * as configsRoute from "@/app/api/v1/perf-configs/route";
import * as configRoute from "@/app/api/v1/perf-configs/[id]/route";
import * as runConfigRoute from "@/app/api/v1/perf-configs/[id]/run/route";
import * as historyRoute from "@/app/api/v1/perf-results/history/[configId]/route";
import * as trendRoute from "@/app/api/v1/perf-results/trend/[configId]/route";
import * as resultRoute from "@/app/api/v1/perf-results/[id]/route";
import * as environmentsRoute from "@/app/api/v1/api-tester/environments/route";
import { createCaller } from "@/server/api/root";
import type { TrpcContext } from "@/server/api/trpc";
import { db } from "@/server/db/client";
import { actorFor, call, signedInOwner } from "@/server/testing/fixtures";
import { useTarget } from "@/server/testing/load-target";
import { until } from "@/server/testing/until";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "perf-configs";
const OTHER = "perf-configs-other";
const target = useTarget();
let cookie: string;
let outsider: string;
let owner: Awaited<ReturnType<typeof signedInOwner>>["user"];

beforeAll(async () => {
  ({ user: owner, cookie } = await signedInOwner(NS));
  ({ cookie: outsider } = await signedInOwner(OTHER));
});

/** What reached the target: each request's path and x-token header. */
const seen = () => target.seen.map((s) => `${s.path} ${s.headers["x-token"] ?? ""}`);

const url = (path: string, ns = NS, extra = "") => `${path}?namespace=${ns}${extra}`;
const create = (body: unknown, as = cookie, ns = NS) => call(configsRoute.POST, url("/api/v1/perf-configs", ns), { method: "POST", cookie: as, body });
const get = (id: string, as = cookie, ns = NS) => call(configRoute.GET, url(`/api/v1/perf-configs/${id}`, ns), { cookie: as, params: { id } });
const put = (id: string, body: unknown, as = cookie, ns = NS) => call(configRoute.PUT, url(`/api/v1/perf-configs/${id}`, ns), { method: "PUT", cookie: as, body, params: { id } });
const runConfig = (id: string, body: unknown = {}) => call(runConfigRoute.POST, url(`/api/v1/perf-configs/${id}/run`), { method: "POST", cookie, body, params: { id } });

const SCRIPT = `import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 4, vus: 1, thresholds: { http_req_duration: ['p(95)<5000'] } };
export default function () { check(http.get(__ENV.BASE + '/hit', { headers: { 'x-token': __ENV.TOKEN || '' } }), { 'is 200': (r) => r.status === 200 }); }`;

const ended = async (id: string) =>
  (
    await until(
      () => call(resultRoute.GET, url(`/api/v1/perf-results/${id}`), { cookie, params: { id } }),
      (r) => !["queued", "running"].includes(r.body.status),
    )
  ).body;

describe("performance configs", () => {
  it("creates, reads, lists with search, updates and deletes", async () => {
    const r = await create({ name: "Checkout", description: "the checkout path", script: SCRIPT, options: { iterations: 2 }, environment: { BASE: target.base }, files: { "users.csv": "a,b\n" } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ name: "Checkout", description: "the checkout path", options: { iterations: 2 }, environment: { BASE: target.base }, envNames: ["BASE"], fileNames: ["users.csv"], createdBy: owner.username, lastResult: null, collectionIds: [], environmentId: null });
    const id = r.body.id;
    expect((await get(id)).body.script).toBe(SCRIPT);
    await create({ name: "Other", script: SCRIPT });
    const list = await call(configsRoute.GET, url("/api/v1/perf-configs", NS, "&search=CHECKOUT"), { cookie });
    expect(list.status).toBe(200);
    expect(list.body.configs.map((c: { name: string }) => c.name)).toEqual(["Checkout"]);
    // A list row carries neither the script nor the values.
    expect(list.body.configs[0]).not.toHaveProperty("script");
    expect(list.body.configs[0]).not.toHaveProperty("environment");
    const updated = await put(id, { name: "Checkout v2", options: { iterations: 3 } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ name: "Checkout v2", options: { iterations: 3 }, description: "the checkout path", environment: { BASE: target.base } });
    const gone = await call(configRoute.DELETE, url(`/api/v1/perf-configs/${id}`), { method: "DELETE", cookie, params: { id } });
    expect(gone.status).toBe(200);
    expect((await get(id)).status).toBe(404);
  });

  it("refuses at save time what a run would refuse, naming the line, the option or the threshold", async () => {
    const syntax = await create({ name: "Broken", script: "export default function () {\n  let x = ;\n}" });
    expect(syntax.status).toBe(400);
    expect(syntax.body.details).toEqual([expect.objectContaining({ path: "script", line: 2 })]);
    expect(syntax.body.details[0].column).toBeGreaterThan(0);
    const option = await create({ name: "Bad option", script: "export default function () {}", options: { vus: 1, duration: "ten seconds" } });
    expect(option.status).toBe(400);
    expect(option.body.details).toEqual([expect.objectContaining({ path: "options.duration" })]);
    const threshold = await create({ name: "Bad threshold", script: "export default function () {}", options: { thresholds: { http_req_duration: ["p(95)<<200"] } } });
    expect(threshold.status).toBe(400);
    expect(threshold.body.error).toContain("http_req_duration");
    const envName = await create({ name: "Bad env", script: "export default function () {}", environment: { "not-a-name": "x" } });
    expect(envName.status).toBe(400);
    expect(envName.body.details[0].field).toBe("environment.not-a-name");
    // An update is checked the same way, and changes nothing when refused.
    const ok = await create({ name: "Fine", script: "export default function () {}" });
    const bad = await put(ok.body.id, { script: "export default function () {\n\n  )\n}" });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ path: "script", line: 3 })]);
    expect((await get(ok.body.id)).body.script).toBe("export default function () {}");
    const missingEnv = await create({ name: "Env", script: "export default function () {}", environmentId: crypto.randomUUID() });
    expect(missingEnv.status).toBe(404);
    expect(await db().perfConfig.count({ where: { name: { in: ["Broken", "Bad option", "Bad threshold", "Bad env", "Env"] } } })).toBe(0);
  });

  it("another namespace's config is 404, read or written, and its list does not show it", async () => {
    const mine = await create({ name: "Private", script: "export default function () {}" });
    expect((await get(mine.body.id, outsider, OTHER)).status).toBe(404);
    expect((await put(mine.body.id, { name: "taken" }, outsider, OTHER)).status).toBe(404);
    expect((await call(configRoute.DELETE, url(`/api/v1/perf-configs/${mine.body.id}`, OTHER), { method: "DELETE", cookie: outsider, params: { id: mine.body.id } })).status).toBe(404);
    expect((await call(runConfigRoute.POST, url(`/api/v1/perf-configs/${mine.body.id}/run`, OTHER), { method: "POST", cookie: outsider, body: {}, params: { id: mine.body.id } })).status).toBe(404);
    expect((await call(historyRoute.GET, url(`/api/v1/perf-results/history/${mine.body.id}`, OTHER), { cookie: outsider, params: { configId: mine.body.id } })).status).toBe(404);
    // Not a member of this namespace at all: 404 too.
    expect((await get(mine.body.id, outsider)).status).toBe(404);
    const theirs = await call(configsRoute.GET, url("/api/v1/perf-configs", OTHER), { cookie: outsider });
    expect(theirs.body.configs).toEqual([]);
    expect((await get(mine.body.id)).body.name).toBe("Private");
  });

  it("runs a config: the result names it, __ENV merges environment, config and run values, and it shows in history and trend", async () => {
    const env = await call(environmentsRoute.POST, url("/api/v1/api-tester/environments"), { method: "POST", cookie, body: { name: "Staging", variables: { TOKEN: "from-environment", BASE: "http://wrong.invalid" }, secrets: ["TOKEN"] } });
    expect(env.status, env.text).toBe(201);
    const c = await create({ name: "Nightly", script: SCRIPT, environment: { BASE: target.base }, environmentId: env.body.id });
    expect(c.status, c.text).toBe(201);
    const id = c.body.id;
    target.seen.length = 0;
    const first = await runConfig(id);
    expect(first.status, first.text).toBe(202);
    expect(first.body).toMatchObject({ status: "queued", taskId: first.body.id });
    const r1 = await ended(first.body.id);
    expect(r1).toMatchObject({ status: "passed", configId: id, name: "Nightly" });
    expect(r1.summary).toMatchObject({ requests: 4, iterations: 4, checksPassed: 4, checksFailed: 0, thresholdsOk: true });
    expect(r1.envNames.sort()).toEqual(["BASE", "TOKEN"]);
    // The environment's secret reached the script; the config's own BASE won over the environment's.
    expect(seen()).toEqual(Array(4).fill("/hit from-environment"));
    const run = await db().testRun.findUniqueOrThrow({ where: { id: first.body.id } });
    expect(run).toMatchObject({ mode: "load", referenceId: id, environmentId: env.body.id });

    target.seen.length = 0;
    const second = await runConfig(id, { options: { iterations: 2 }, environment: { TOKEN: "from-run" } });
    expect(second.status, second.text).toBe(202);
    expect((await ended(second.body.id)).summary.requests).toBe(2);
    expect(seen()).toEqual(Array(2).fill("/hit from-run"));

    const history = await call(historyRoute.GET, url(`/api/v1/perf-results/history/${id}`), { cookie, params: { configId: id } });
    expect(history.status).toBe(200);
    expect(history.body.total).toBe(2);
    expect(history.body.results.map((r: { id: string }) => r.id)).toEqual([second.body.id, first.body.id]);
    const trend = await call(trendRoute.GET, url(`/api/v1/perf-results/trend/${id}`), { cookie, params: { configId: id } });
    expect(trend.status).toBe(200);
    expect(trend.body.points.map((p: { id: string }) => p.id)).toEqual([first.body.id, second.body.id]);
    for (const p of trend.body.points) {
      expect(p).toMatchObject({ status: "passed", failedRate: 0, thresholdsOk: true });
      expect(p.rps).toBeGreaterThan(0);
      expect(p.p95Ms).toBeGreaterThan(0);
      expect(p.p99Ms).toBeGreaterThanOrEqual(p.p95Ms);
    }
    expect((await get(id)).body.lastResult).toMatchObject({ id: second.body.id, status: "passed" });

    // Deleting the config keeps its results: the history is still there.
    await call(configRoute.DELETE, url(`/api/v1/perf-configs/${id}`), { method: "DELETE", cookie, params: { id } });
    const after = await call(historyRoute.GET, url(`/api/v1/perf-results/history/${id}`), { cookie, params: { configId: id } });
    expect(after.body.total).toBe(2);
    const unknown = crypto.randomUUID();
    expect((await call(trendRoute.GET, url(`/api/v1/perf-results/trend/${unknown}`), { cookie, params: { configId: unknown } })).status).toBe(404);
  });

  it("the tRPC procedures call the same services", async () => {
    const api = createCaller({ actor: actorFor(owner), authError: null, ip: "127.0.0.1", userAgent: null, requestId: "test" } satisfies TrpcContext).perf;
    const c = await api.configs.create({ namespace: NS, config: { name: "Via tRPC", description: "", script: SCRIPT, options: { iterations: 1 }, environment: { BASE: target.base }, files: {}, collectionIds: [], environmentId: null } });
    expect((await api.configs.get({ namespace: NS, id: c.id })).name).toBe("Via tRPC");
    expect((await api.configs.update({ namespace: NS, id: c.id, patch: { description: "d" } })).description).toBe("d");
    const started = await api.configs.run({ namespace: NS, id: c.id });
    expect((await ended(started.id)).status).toBe("passed");
    expect((await api.results.history({ namespace: NS, configId: c.id, limit: 10 })).results).toHaveLength(1);
    expect((await api.results.trend({ namespace: NS, configId: c.id, limit: 10 })).points).toHaveLength(1);
    expect((await api.configs.list({ namespace: NS, search: "trpc" })).configs.map((x) => x.id)).toEqual([c.id]);
    await api.configs.delete({ namespace: NS, id: c.id });
    await expect(api.configs.get({ namespace: NS, id: c.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
