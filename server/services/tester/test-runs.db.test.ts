// Stored test runs: what the executor writes (create, start, results in
// order, progress with heartbeat, finish, cancel) and what the API shows
// (list with filters and paging, detail, report, active runs, delete), and
// the heartbeat rule: a run whose process stopped ends failed, never stuck.
import { beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "@/app/api/v1/api-tester/test-runs/route";
import * as oneRoute from "@/app/api/v1/api-tester/test-runs/[id]/route";
import * as reportRoute from "@/app/api/v1/api-tester/test-reports/[id]/route";
import * as activeRoute from "@/app/api/v1/test-runs/active/route";
import type { RunCounts, RunRequestResult } from "@/server/contracts/tester-run";
import { db } from "@/server/db/client";
import { actorFor, call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { type NamespaceScope, resolveNamespace } from "../namespace-access";
import {
  appendRunResults,
  createTestRun,
  finishTestRun,
  heartbeatRun,
  INTERRUPTED_REASON,
  isCancelRequested,
  markRunStarted,
  reapStaleRuns,
  requestCancel,
  RUN_STALE_AFTER_MS,
  updateRunProgress,
} from "./test-runs";

useTestDatabase();

const NS = "runs";
let cookie: string;
let viewer: string;
let outsider: string;
let scope: NamespaceScope;
let otherScope: NamespaceScope;

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  const v = await makeUser();
  const x = await makeUser({ namespaces: { "other-runs": "owner" } });
  await makeNamespace(NS, { [v.user.id]: "viewer" });
  cookie = await sessionCookie(o.user.id);
  viewer = await sessionCookie(v.user.id);
  outsider = await sessionCookie(x.user.id);
  scope = await resolveNamespace(actorFor(o.user), NS);
  otherScope = await resolveNamespace(actorFor(x.user), "other-runs");
});

const result = (i: number, over: Partial<RunRequestResult> = {}): RunRequestResult => ({
  iteration: 0,
  collectionId: null,
  requestId: null,
  name: `request ${i}`,
  path: ["Folder", "Sub"],
  method: "GET",
  url: `https://api.example.test/${i}`,
  status: "passed",
  responseCode: 200,
  responseTimeMs: 12.5,
  responseSize: 100,
  tests: [{ name: "status is 200", status: "passed" }],
  logs: [{ level: "log", message: `hello ${i}`, at: 1 }],
  error: null,
  startedAt: new Date().toISOString(),
  ...over,
});
const counts = (over: Partial<RunCounts> = {}): RunCounts => ({ requests: 0, passedRequests: 0, failedRequests: 0, skippedRequests: 0, tests: 0, passedTests: 0, failedTests: 0, skippedTests: 0, ...over });

const list = (query = "", as = cookie) => call(listRoute.GET, `/api/v1/api-tester/test-runs?namespace=${NS}&${query}`, { cookie: as });
const get = (id: string, as = cookie) => call(oneRoute.GET, `/api/v1/api-tester/test-runs/${id}?namespace=${NS}`, { cookie: as, params: { id } });
const remove = (id: string, as = cookie) => call(oneRoute.DELETE, `/api/v1/api-tester/test-runs/${id}?namespace=${NS}`, { method: "DELETE", cookie: as, params: { id } });
const report = (id: string) => call(reportRoute.GET, `/api/v1/api-tester/test-reports/${id}?namespace=${NS}`, { cookie, params: { id } });
const active = () => call(activeRoute.GET, `/api/v1/test-runs/active?namespace=${NS}`, { cookie });
const age = (id: string, ms: number) => db().testRun.update({ where: { id }, data: { heartbeatAt: new Date(Date.now() - ms) } });

describe("test runs: what the executor writes", () => {
  it("create, start, append results in order (seq continues across calls and batches), progress, finish; the API shows it", async () => {
    const run = await createTestRun(scope, { name: "Nightly", collectionIds: ["c1"], environmentId: null, iterations: 2, createdBy: "alice", options: { bail: false } });
    expect(run).toMatchObject({ namespace: NS, name: "Nightly", mode: "functional", status: "queued", iterations: 2, counts: counts(), startedAt: null, finishedAt: null, source: "run", createdBy: "alice", collectionIds: ["c1"] });
    expect(await markRunStarted(run.id)).toBe(true);
    expect(await markRunStarted(run.id)).toBe(false);

    expect(await appendRunResults(run.id, [result(0), result(1, { status: "failed", tests: [{ name: "t", status: "failed", error: "expected 200" }], scriptError: { message: "boom", kind: "runtime", line: 3 } })])).toBe(2);
    expect(await appendRunResults(run.id, Array.from({ length: 600 }, (_, i) => result(i + 2, { iteration: 1 })))).toBe(602 - 2);
    expect(await updateRunProgress(run.id, counts({ requests: 602, passedRequests: 601, failedRequests: 1 }))).toEqual({ cancelRequested: false });

    const during = await get(run.id);
    expect(during.status, during.text).toBe(200);
    expect(during.body).toMatchObject({ status: "running", counts: { requests: 602 } });
    expect(during.body.startedAt).not.toBeNull();
    expect(during.body.results).toHaveLength(602);
    expect(during.body.results.map((r: { name: string }) => r.name).slice(0, 3)).toEqual(["request 0", "request 1", "request 2"]);
    expect(during.body.results[1]).toMatchObject({ status: "failed", scriptError: { message: "boom", kind: "runtime", line: 3 }, path: ["Folder", "Sub"], tests: [{ name: "t", status: "failed", error: "expected 200" }] });
    expect(during.body.results[0].scriptError).toBeUndefined();
    expect((await active()).body.testRuns.map((r: { id: string }) => r.id)).toContain(run.id);

    const done = await finishTestRun(run.id, "failed", counts({ requests: 602, passedRequests: 601, failedRequests: 1, tests: 602, passedTests: 601, failedTests: 1 }));
    expect(done).toMatchObject({ status: "failed", statusReason: null, counts: { failedTests: 1 } });
    expect(done!.durationMs).toBeGreaterThanOrEqual(0);
    expect(done!.finishedAt).not.toBeNull();
    // A second finish (or one for a run that ended otherwise) changes nothing.
    expect(await finishTestRun(run.id, "passed", counts())).toBeNull();
    expect((await active()).body.testRuns.map((r: { id: string }) => r.id)).not.toContain(run.id);
    const rep = await report(run.id);
    expect(rep.status).toBe(200);
    expect(rep.body).toEqual((await get(run.id)).body);
    expect(await appendRunResults("00000000-0000-4000-8000-000000000000", [result(0)])).toBe(0);
  });

  it("cancel: a running run gets the flag its executor polls; a queued one ends cancelled at once and cannot start; an ended one is a 409", async () => {
    const running = await createTestRun(scope, { name: "Long", status: "running" });
    expect(await isCancelRequested(running.id)).toBe(false);
    const asked = await requestCancel(scope, running.id);
    expect(asked.status).toBe("running");
    expect(await isCancelRequested(running.id)).toBe(true);
    expect(await heartbeatRun(running.id)).toEqual({ cancelRequested: true });
    expect((await finishTestRun(running.id, "cancelled", counts(), "cancelled by alice"))?.statusReason).toBe("cancelled by alice");

    const queued = await createTestRun(scope, { name: "Waiting" });
    const cancelled = await requestCancel(scope, queued.id);
    expect(cancelled).toMatchObject({ status: "cancelled", statusReason: "cancelled before it started" });
    expect(await markRunStarted(queued.id)).toBe(false);
    await expect(requestCancel(scope, queued.id)).rejects.toMatchObject({ status: 409 });
    await expect(requestCancel(otherScope, running.id)).rejects.toMatchObject({ status: 404 });
  });

  it("reapStaleRuns ends queued and running runs whose heartbeat is too old as failed, 'interrupted'; fresh and ended ones stay; reads reap", async () => {
    const stale = await createTestRun(scope, { name: "Orphan", status: "running" });
    const staleQueued = await createTestRun(scope, { name: "Orphan in queue" });
    const fresh = await createTestRun(scope, { name: "Alive", status: "running" });
    const ended = await createTestRun(scope, { name: "Ended", status: "running" });
    await finishTestRun(ended.id, "passed", counts());
    await age(stale.id, RUN_STALE_AFTER_MS + 5_000);
    await age(staleQueued.id, RUN_STALE_AFTER_MS + 5_000);
    await age(ended.id, RUN_STALE_AFTER_MS + 5_000);

    const reaped = await reapStaleRuns(RUN_STALE_AFTER_MS);
    expect(reaped.sort()).toEqual([stale.id, staleQueued.id].sort());
    const after = (await get(stale.id)).body;
    expect(after).toMatchObject({ status: "failed", statusReason: INTERRUPTED_REASON });
    expect(after.finishedAt).not.toBeNull();
    expect((await get(fresh.id)).body.status).toBe("running");
    expect((await get(ended.id)).body).toMatchObject({ status: "passed", statusReason: null });
    // The executor of a reaped run learns it has ended: its finish changes nothing.
    expect(await finishTestRun(stale.id, "passed", counts())).toBeNull();

    // A heartbeat keeps a run alive; without one a read of runs reaps it.
    await age(fresh.id, RUN_STALE_AFTER_MS + 5_000);
    await heartbeatRun(fresh.id);
    expect(await reapStaleRuns()).toEqual([]);
    await age(fresh.id, RUN_STALE_AFTER_MS + 5_000);
    const listed = await list("status=running");
    expect(listed.body.testRuns.map((r: { id: string }) => r.id)).not.toContain(fresh.id);
    expect((await get(fresh.id)).body).toMatchObject({ status: "failed", statusReason: INTERRUPTED_REASON });
  });
});

describe("test runs: the API", () => {
  it("lists newest first with mode, referenceId and status filters and paging; active runs of every mode", async () => {
    const load = await createTestRun(scope, { name: "Load 1", mode: "load", referenceId: "perf-1", status: "running" });
    const load2 = await createTestRun(scope, { name: "Load 2", mode: "load", referenceId: "perf-2", status: "passed", source: "import", startedAt: new Date(Date.now() - 1000), finishedAt: new Date(), durationMs: 1000 });
    const fuzz = await createTestRun(scope, { name: "Fuzz", mode: "fuzz", referenceId: "fz", status: "queued" });
    await createTestRun(otherScope, { name: "Elsewhere", mode: "load", status: "running" });

    const loads = await list("mode=load");
    expect(loads.status, loads.text).toBe(200);
    expect(loads.body.testRuns.map((r: { id: string }) => r.id)).toEqual([load2.id, load.id]);
    expect(loads.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect((await list("mode=load&referenceId=perf-1")).body.testRuns.map((r: { id: string }) => r.id)).toEqual([load.id]);
    expect((await list("mode=load&limit=1&offset=1")).body.testRuns.map((r: { id: string }) => r.id)).toEqual([load.id]);
    expect((await list("status=passed&mode=load")).body.testRuns[0]).toMatchObject({ id: load2.id, source: "import", durationMs: 1000 });
    const act = await active();
    expect(act.status).toBe(200);
    const activeIds = act.body.testRuns.map((r: { id: string }) => r.id);
    expect(activeIds).toEqual(expect.arrayContaining([load.id, fuzz.id]));
    expect(activeIds).not.toContain(load2.id);
    expect(act.body.count).toBe(activeIds.length);
    expect((await list("mode=stress")).status).toBe(400);
    expect((await list("limit=501")).status).toBe(400);
  });

  it("delete removes a finished run with its results; a queued or running one is a 409; another namespace's is a 404; a viewer cannot", async () => {
    const run = await createTestRun(scope, { name: "To delete", status: "running" });
    await appendRunResults(run.id, [result(0)]);
    const busy = await remove(run.id);
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe("conflict");
    await finishTestRun(run.id, "passed", counts({ requests: 1, passedRequests: 1 }));
    expect((await remove(run.id, viewer)).status).toBe(403);
    expect((await remove(run.id)).body).toEqual({ ok: true });
    expect((await get(run.id)).status).toBe(404);
    expect(await db().testRunResult.count({ where: { runId: run.id } })).toBe(0);

    const theirs = await createTestRun(otherScope, { name: "Theirs", status: "passed" });
    expect((await get(theirs.id)).status).toBe(404);
    expect((await remove(theirs.id)).status).toBe(404);
    expect((await get(theirs.id, outsider)).status).toBe(404);
    expect((await get("not-a-uuid")).status).toBe(400);
  });
});
