// Load runs in the web process, against a real HTTP server and database: a
// run ends with k6's numbers stored on its result and its load test run; a
// stop lands within a second and keeps what was measured; bad scripts,
// options and thresholds are 400s naming them; a part that goes silent is
// lost and its run still reports what it measured.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { signedInOwner } from "@/server/testing/fixtures";
import { useTarget } from "@/server/testing/load-target";
import { useTestDatabase } from "@/server/testing/use-test-database";
import type { Actor } from "@/server/auth/actor";
import { type NamespaceScope, resolveNamespace } from "../namespace-access";
import { finishPart, markPartStarted, recordPartProgress, sweepLostParts } from "./run-parts";
import { startPerfRun, stopPerfRun } from "./runs";
import { until } from "@/server/testing/until";

useTestDatabase();
const target = useTarget();

const NS = "perf-runs";
let actor: Actor;
let scope: NamespaceScope;

beforeAll(async () => {
  ({ actor } = await signedInOwner(NS));
  scope = await resolveNamespace(actor, NS);
});

const ended = (id: string) =>
  until(
    () => db().perfResult.findUniqueOrThrow({ where: { id }, include: { run: true, parts: true } }),
    (r) => !["queued", "running"].includes(r.status),
  );

async function problemOf(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe("load runs in the web process", () => {
  it("runs a k6 script and stores k6's numbers on the result and its load test run", async () => {
    target.seen.length = 0;
    const started = await startPerfRun(actor, scope, {
      name: "Smoke",
      script: `import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 20, vus: 2, thresholds: { http_req_failed: ['rate<0.01'], checks: ['rate==1'] } };
export default function () { check(http.get(__ENV.BASE + '/x'), { 'is 200': (r) => r.status === 200 }); }
export function handleSummary(data) { return { 'summary.json': JSON.stringify({ reqs: data.metrics.http_reqs.values.count }) }; }`,
      environment: { BASE: target.base },
    });
    expect(started).toMatchObject({ status: "queued", taskId: started.id });
    const r = await ended(started.id);
    expect(r.status).toBe("passed");
    expect(target.seen.length).toBe(20);
    const summary = r.summary as { metrics: Record<string, { values: Record<string, number> }> };
    expect(summary.metrics.http_reqs.values.count).toBe(20);
    expect(r.thresholds).toEqual(expect.arrayContaining([expect.objectContaining({ key: "checks", ok: true })]));
    expect(r.summaryText).toContain("http_reqs");
    expect(r.handleSummary).toEqual({ "summary.json": '{"reqs":20}' });
    expect(r.envNames).toEqual(["BASE"]);
    expect(r.run).toMatchObject({ mode: "load", status: "passed", name: "Smoke" });
    expect(r.run.counts).toMatchObject({ requests: 20, failedRequests: 0, tests: 20, passedTests: 20 });
    expect(r.parts).toHaveLength(1);
  });

  it("stops within a second and keeps what was measured", async () => {
    const started = await startPerfRun(actor, scope, {
      script: `import http from 'k6/http'; import { sleep } from 'k6';
export const options = { vus: 2, duration: '60s' };
export default function () { http.get(__ENV.BASE); sleep(0.05); }`,
      environment: { BASE: target.base },
    });
    await until(
      () => db().perfRunPart.findFirstOrThrow({ where: { resultId: started.id } }),
      (p) => p.seq >= 2,
    );
    const asked = Date.now();
    await stopPerfRun(scope, started.id);
    const r = await ended(started.id);
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(r.status).toBe("stopped");
    expect(r.run.status).toBe("cancelled");
    expect((r.summary as { metrics: Record<string, { values: Record<string, number> }> }).metrics.http_reqs.values.count).toBeGreaterThan(0);
    expect((r.series as unknown[]).length).toBeGreaterThanOrEqual(2);
    expect((await problemOf(stopPerfRun(scope, started.id))).status).toBe(409);
  });

  it("answers 400 naming the line of a syntax error, an unsupported module, a bad option and a bad threshold", async () => {
    const syntax = await problemOf(startPerfRun(actor, scope, { script: "export default function () {\n  let x = ;\n}" }));
    expect(syntax.status).toBe(400);
    expect(syntax.details).toEqual([expect.objectContaining({ path: "script", line: 2 })]);
    const browser = await problemOf(startPerfRun(actor, scope, { script: "import { browser } from 'k6/browser';\nexport default function () {}" }));
    expect(browser.details).toEqual([expect.objectContaining({ module: "k6/browser" })]);
    const option = await problemOf(startPerfRun(actor, scope, { script: "export default function () {}", options: { vus: 2, duration: "ten seconds" } }));
    expect(option.details).toEqual([expect.objectContaining({ path: "options.duration" })]);
    const threshold = await problemOf(startPerfRun(actor, scope, { script: "export const options = { thresholds: { http_req_duration: ['p(95)<<200'] } };\nexport default function () {}" }));
    expect(threshold.message).toContain("http_req_duration");
    expect(await db().perfResult.count({ where: { namespaceId: scope.id, status: "queued" } })).toBe(0);
  });

  it("refuses more VUs than the web process runs itself when no runner is registered (503)", async () => {
    const e = await problemOf(startPerfRun(actor, scope, { script: "export default function () {}", options: { vus: 5000, duration: "1s" } }));
    expect(e.status).toBe(503);
    expect(e.message).toContain("runner agent");
  });

  it("a silent part is lost; what it reported still counts and the run says why it failed", async () => {
    const started = await startPerfRun(actor, scope, {
      script: `import http from 'k6/http'; export const options = { iterations: 3 }; export default function () { http.get(__ENV.BASE); }`,
      environment: { BASE: target.base },
    });
    await ended(started.id);
    // A second, hand-made run whose only part reported once and then went silent.
    const id = crypto.randomUUID();
    await db().testRun.create({ data: { id, namespaceId: scope.id, name: "Lost", mode: "load", status: "queued" } });
    await db().perfResult.create({ data: { id, namespaceId: scope.id, runGroupId: id, name: "Lost", script: "x" } });
    const part = await db().perfRunPart.create({ data: { resultId: id, index: 0, count: 1 } });
    await markPartStarted(part.id, null);
    const measured = await db().perfResult.findUniqueOrThrow({ where: { id: started.id }, select: { metrics: true, summary: true } });
    const snapshot = { metrics: measured.metrics as never, rootGroup: { name: "", path: "", groups: [], checks: [] }, errors: [], durationMs: 1000 };
    await recordPartProgress(part.id, { seq: 1, points: [], snapshot });
    // The same report again (a retried POST) changes nothing.
    await recordPartProgress(part.id, { seq: 1, points: [], snapshot });
    await db().perfRunPart.update({ where: { id: part.id }, data: { heartbeatAt: new Date(Date.now() - 60_000) } });
    expect(await sweepLostParts()).toBe(1);
    const r = await db().perfResult.findUniqueOrThrow({ where: { id }, include: { run: true } });
    expect(r.status).toBe("failed");
    expect(r.reason).toContain("was lost");
    expect((r.summary as { metrics: Record<string, { values: Record<string, number> }> }).metrics.http_reqs.values.count).toBe(3);
    expect(r.run.status).toBe("failed");
    // A late final report of the lost part is ignored.
    await finishPart(part.id, { status: "passed" });
    expect((await db().perfResult.findUniqueOrThrow({ where: { id } })).status).toBe("failed");
  });
});
