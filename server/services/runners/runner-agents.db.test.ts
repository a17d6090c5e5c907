// Runner agents end to end, with real everything: the /api/v1 route
// handlers on a node:http server, PostgreSQL with pg-boss, runner agents
// (in this process, and one as a `polymock runner` child process that is
// killed mid-run), and a node:http target counting the requests it gets.
// Two agents split a task and the merged result counts every request once;
// a killed agent's part is lost, the run fails naming it, and what the part
// reported still counts. Around them: tokens that may not run agents, a
// namespace's parts out of another namespace's reach, capacity, the task
// endpoints (400, 404, 503, queue position, cancel).
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as integrationStatusRoute from "@/app/api/v1/integrations/status/route";
import * as taskQueueRoute from "@/app/api/v1/runner-tasks/[id]/queue-position/route";
import * as taskRoute from "@/app/api/v1/runner-tasks/[id]/route";
import * as tasksRoute from "@/app/api/v1/runner-tasks/route";
import * as claimRoute from "@/app/api/v1/runners/[id]/claim/route";
import * as heartbeatRoute from "@/app/api/v1/runners/[id]/heartbeat/route";
import * as finishRoute from "@/app/api/v1/runners/[id]/parts/[partId]/finish/route";
import * as progressRoute from "@/app/api/v1/runners/[id]/parts/[partId]/progress/route";
import * as registerRoute from "@/app/api/v1/runners/register/route";
import * as runnersRoute from "@/app/api/v1/runners/route";
import { db } from "@/server/db/client";
import { RunnerAgent } from "@/server/runner-agent/agent";
import { actorFor, makeToken, makeUser, signedInOwner } from "@/server/testing/fixtures";
import { useTarget } from "@/server/testing/load-target";
import { routeServer } from "@/server/testing/route-server";
import { until } from "@/server/testing/until";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { createIntegration, createNamespaceIntegration, revokeRotating } from "../integrations";
import { sweepLostParts } from "../perf/run-parts";
import { namespaceQueue, runnerQueue, stopRunnerQueue } from "./queue";

useTestDatabase();
const target = useTarget();

const api = routeServer([
  ["/api/v1/runners/register", registerRoute],
  ["/api/v1/runners", runnersRoute],
  ["/api/v1/runners/[id]/heartbeat", heartbeatRoute],
  ["/api/v1/runners/[id]/claim", claimRoute],
  ["/api/v1/runners/[id]/parts/[partId]/progress", progressRoute],
  ["/api/v1/runners/[id]/parts/[partId]/finish", finishRoute],
  ["/api/v1/runner-tasks", tasksRoute],
  ["/api/v1/runner-tasks/[id]", taskRoute],
  ["/api/v1/runner-tasks/[id]/queue-position", taskQueueRoute],
  ["/api/v1/integrations/status", integrationStatusRoute],
]);
const call = api.call;
let base = "";
let owner: { id: string; username: string; role: "admin" | "user" };
let cookie = "";
let tokenA = "";
let tokenB = "";
let tokenAId = "";
const agents: RunnerAgent[] = [];
const children: ChildProcess[] = [];

const SCRIPT = `import http from 'k6/http'; import { sleep } from 'k6';
export default function () { http.get(__ENV.BASE + '/hit'); sleep(0.1); }`;

async function config(namespace: string, options: Record<string, unknown>) {
  const ns = await db().namespace.findUniqueOrThrow({ where: { name: namespace } });
  return db().perfConfig.create({ data: { namespaceId: ns.id, name: `Load ${namespace}`, script: SCRIPT, options: options as object, environment: { BASE: target.base } } });
}

const submit = (namespace: string, body: Record<string, unknown>) => call("POST", `/api/v1/runner-tasks?namespace=${namespace}`, { cookie, body });
const taskView = (id: string) => call("GET", `/api/v1/runner-tasks/${id}?namespace=team-a`, { cookie });
const ended = (taskId: string) => until(() => taskView(taskId), (r) => !["queued", "running"].includes(r.body.status), 60_000);
const register = (token: string, name: string, capacityVus = 10) => call("POST", "/api/v1/runners/register", { token, body: { name, capacityVus } });
const httpReqs = (summary: unknown) => (summary as { metrics: Record<string, { values: Record<string, number> }> }).metrics.http_reqs.values.count;

beforeAll(async () => {
  base = await api.listen();
  ({ user: owner, cookie } = await signedInOwner("team-a", "team-b"));
  const a = await createNamespaceIntegration(actorFor(owner), "team-a", { name: "runners-a", permissions: ["read", "write"] });
  tokenA = a.token;
  tokenAId = a.id;
  tokenB = (await createNamespaceIntegration(actorFor(owner), "team-b", { name: "runners-b", permissions: ["read", "write"] })).token;
});

afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await Promise.all(agents.map((a) => a.stop()));
  await api.settled();
  await stopRunnerQueue();
  await api.close();
});

describe("registering runner agents", () => {
  it("takes integration tokens only, and not revoked or expired ones", async () => {
    const apiToken = await makeToken(owner, { permissions: ["read", "write"], namespace: "team-a" });
    expect((await register(apiToken, "not-an-integration")).status).toBe(403);
    const revoked = await createNamespaceIntegration(actorFor(owner), "team-a", { name: "gone", permissions: ["read", "write"] });
    await revokeRotating(actorFor(owner), "integration", revoked.id);
    expect((await register(revoked.token, "r")).status).toBe(401);
    const expired = await createNamespaceIntegration(actorFor(owner), "team-a", { name: "old", permissions: ["read", "write"] });
    await db().credential.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await register(expired.token, "r")).status).toBe(401);
    const readOnly = await createNamespaceIntegration(actorFor(owner), "team-a", { name: "reader", permissions: ["read"] });
    expect((await register(readOnly.token, "r")).status).toBe(403);
  });

  it("refuses a second online agent of the same name, and lists runners with their status", async () => {
    const first = await register(tokenA, "twin", 3);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: "twin", namespace: "team-a", status: "online", capacityVus: 3, heartbeatIntervalMs: 5000 });
    expect((await register(tokenA, "twin", 3)).status).toBe(409);
    // Once it said it is offline, the name is free again.
    expect((await call("POST", `/api/v1/runners/${first.body.id}/heartbeat`, { token: tokenA, body: { activeVus: 0, status: "offline" } })).status).toBe(200);
    const again = await register(tokenA, "twin", 4);
    expect(again.body.id).toBe(first.body.id);
    // Another token cannot act as this runner.
    expect((await call("POST", `/api/v1/runners/${first.body.id}/heartbeat`, { token: tokenB, body: { activeVus: 0 } })).status).toBe(404);
    const list = await call("GET", "/api/v1/runners?namespace=team-a", { cookie });
    expect(list.body.runners).toEqual([expect.objectContaining({ name: "twin", status: "online", capacityVus: 4, parts: [] })]);
    expect((await call("GET", "/api/v1/runners?namespace=team-b", { cookie })).body.runners).toEqual([]);
    const status = await call("GET", "/api/v1/integrations/status", { cookie });
    expect(status.body.integrations).toEqual(expect.arrayContaining([expect.objectContaining({ id: tokenAId, runners: 1, online: 1, capacityVus: 4, status: "active" })]));
    await call("POST", `/api/v1/runners/${first.body.id}/heartbeat`, { token: tokenA, body: { activeVus: 0, status: "offline" } });
  });
});

describe("runner tasks, with runners that claim by hand", () => {
  it("needs a configId of the namespace and an online runner", async () => {
    expect((await submit("team-a", { type: "performance" })).status).toBe(400);
    const other = await config("team-b", { vus: 1, iterations: 1 });
    expect((await submit("team-a", { configId: other.id })).status).toBe(404);
    const mine = await config("team-a", { vus: 1, iterations: 1 });
    expect((await submit("team-a", { configId: mine.id })).status).toBe(503);
    const silent = await register(tokenA, "silent-a", 10);
    expect((await submit("team-a", { configId: mine.id, runnerId: "00000000-0000-4000-8000-000000000000" })).status).toBe(503);
    // Too large for every online runner together.
    expect((await submit("team-a", { configId: mine.id, options: { vus: 50, duration: "5s" } })).status).toBe(503);
    await call("POST", `/api/v1/runners/${silent.body.id}/heartbeat`, { token: tokenA, body: { activeVus: 0, status: "offline" } });
  });

  it("a namespace's parts are out of another namespace's runner's reach, and a part must fit the free VUs", async () => {
    const a = (await register(tokenA, "hand-a", 10)).body;
    const b = (await register(tokenB, "hand-b", 10)).body;
    const cfg = await config("team-a", { vus: 4, iterations: 4 });
    const task = await submit("team-a", { configId: cfg.id });
    expect(task.status).toBe(202);
    expect(task.body).toMatchObject({ status: "queued", partCount: 1, vus: 4, parts: [expect.objectContaining({ status: "queued" })] });
    const claim = (runner: string, token: string, freeVus: number) => call("POST", `/api/v1/runners/${runner}/claim`, { token, body: { waitSeconds: 0, freeVus } });
    expect((await claim(b.id, tokenB, 10)).body).toEqual({ part: null });
    expect((await claim(a.id, tokenA, 3)).body).toEqual({ part: null });
    // The part went back to its place: the next runner with room gets it.
    const got = (await claim(a.id, tokenA, 10)).body.part;
    expect(got).toMatchObject({ taskId: task.body.id, namespace: "team-a", vus: 4, segment: { index: 0, count: 1 }, env: { BASE: target.base }, options: { vus: 4, iterations: 4 } });
    expect(got.script).toBe(SCRIPT);
    expect((await taskView(task.body.id)).body).toMatchObject({ status: "running", parts: [expect.objectContaining({ status: "running", runnerId: a.id })] });
    // B's runner cannot report on A's part.
    expect((await call("POST", `/api/v1/runners/${b.id}/parts/${got.partId}/progress`, { token: tokenB, body: { seq: 1, points: [] } })).status).toBe(404);
    expect((await call("POST", `/api/v1/runners/${a.id}/parts/${got.partId}/progress`, { token: tokenA, body: { seq: 1, points: [] } })).body).toEqual({ stop: false });
    // A histogram that does not decode would break the run's merge: refused, naming it.
    const bogus = { metrics: { http_req_duration: { definition: { name: "http_req_duration", type: "trend", isTime: true }, all: { type: "trend", count: 1, sum: 1, min: 1, max: 1, histogram: "not a histogram" }, submetrics: {} } }, rootGroup: { name: "", path: "", groups: [], checks: [] }, errors: [], durationMs: 1 };
    const refused = await call("POST", `/api/v1/runners/${a.id}/parts/${got.partId}/progress`, { token: tokenA, body: { seq: 2, points: [], snapshot: bogus } });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("snapshot.metrics");
    expect((await call("POST", `/api/v1/runners/${a.id}/parts/${got.partId}/finish`, { token: tokenA, body: { status: "error", reason: "no engine here" } })).status).toBe(200);
    const done = await taskView(task.body.id);
    expect(done.body).toMatchObject({ status: "failed", runStatus: "error", error: "no engine here" });
    const job = await (await runnerQueue()).getJobById(namespaceQueue((await db().namespace.findUniqueOrThrow({ where: { name: "team-a" } })).id), got.partId);
    expect(job?.state).toBe("completed");
    for (const [id, token] of [[a.id, tokenA], [b.id, tokenB]]) await call("POST", `/api/v1/runners/${id}/heartbeat`, { token, body: { activeVus: 0, status: "offline" } });
  });

  it("an admin's instance-wide token serves every namespace", async () => {
    const admin = (await makeUser({ role: "admin" })).user;
    const wide = await createIntegration(actorFor(admin), { name: "everywhere", permissions: ["read", "write"] });
    const runner = (await register(wide.token, "wide", 10)).body;
    expect(runner.namespace).toBeNull();
    expect((await call("GET", "/api/v1/runners?namespace=team-b", { cookie })).body.runners).toEqual(expect.arrayContaining([expect.objectContaining({ name: "wide", namespace: null, status: "online" })]));
    const task = (await submit("team-b", { configId: (await config("team-b", { vus: 1, iterations: 1 })).id })).body;
    const { part } = (await call("POST", `/api/v1/runners/${runner.id}/claim`, { token: wide.token, body: { waitSeconds: 0, freeVus: 10 } })).body;
    expect(part).toMatchObject({ taskId: task.id, namespace: "team-b" });
    await call("POST", `/api/v1/runners/${runner.id}/parts/${part.partId}/finish`, { token: wide.token, body: { status: "error", reason: "by hand" } });
    await call("POST", `/api/v1/runners/${runner.id}/heartbeat`, { token: wide.token, body: { activeVus: 0, status: "offline" } });
  });

  it("a user's token without a namespace serves only its owner's namespaces: not listed, chosen or queued for elsewhere", async () => {
    const { user: member } = await makeUser({ namespaces: { "team-b": "editor" } });
    const own = await createIntegration(actorFor(member), { name: "members-own", permissions: ["read", "write"] });
    const runner = (await register(own.token, "members-runner", 10)).body;
    expect(runner.namespace).toBeNull();
    expect((await call("GET", "/api/v1/runners?namespace=team-b", { cookie })).body.runners).toEqual(expect.arrayContaining([expect.objectContaining({ name: "members-runner" })]));
    expect((await call("GET", "/api/v1/runners?namespace=team-a", { cookie })).body.runners).not.toEqual(expect.arrayContaining([expect.objectContaining({ name: "members-runner" })]));
    // team-a's runs may not go to it: asked for by id, or as the only runner online.
    const cfg = await config("team-a", { vus: 1, iterations: 1 });
    const asked = await submit("team-a", { configId: cfg.id, runnerId: runner.id });
    expect(asked.status).toBe(503);
    expect(asked.body.error).toContain("may not serve namespace 'team-a'");
    expect((await submit("team-a", { configId: cfg.id })).status).toBe(503);
    const task = (await submit("team-b", { configId: (await config("team-b", { vus: 1, iterations: 1 })).id, runnerId: runner.id })).body;
    const { part } = (await call("POST", `/api/v1/runners/${runner.id}/claim`, { token: own.token, body: { waitSeconds: 0, freeVus: 10 } })).body;
    expect(part).toMatchObject({ taskId: task.id, namespace: "team-b" });
    await call("POST", `/api/v1/runners/${runner.id}/parts/${part.partId}/finish`, { token: own.token, body: { status: "error", reason: "by hand" } });
    await call("POST", `/api/v1/runners/${runner.id}/heartbeat`, { token: own.token, body: { activeVus: 0, status: "offline" } });
  });

  it("tells the queue position, and a cancel withdraws queued parts from the job queue", async () => {
    const a = (await register(tokenA, "idle-a", 10)).body;
    const cfg = await config("team-a", { vus: 2, iterations: 2 });
    const first = (await submit("team-a", { configId: cfg.id })).body;
    const second = (await submit("team-a", { configId: cfg.id, options: { vus: 1, iterations: 1 } })).body;
    expect(second.vus).toBe(1);
    expect((await call("GET", `/api/v1/runner-tasks/${first.id}/queue-position?namespace=team-a`, { cookie })).body).toEqual({ id: first.id, status: "queued", position: 1, ahead: 0 });
    expect((await call("GET", `/api/v1/runner-tasks/${second.id}/queue-position?namespace=team-a`, { cookie })).body).toEqual({ id: second.id, status: "queued", position: 2, ahead: 1 });
    const list = await call("GET", "/api/v1/runner-tasks?namespace=team-a&status=queued", { cookie });
    expect(list.body.tasks.map((t: { id: string }) => t.id)).toEqual([second.id, first.id]);
    expect((await call("GET", `/api/v1/runner-tasks/${first.id}?namespace=team-b`, { cookie })).status).toBe(404);

    const cancelled = await call("DELETE", `/api/v1/runner-tasks/${first.id}?namespace=team-a`, { cookie });
    expect(cancelled.body).toMatchObject({ status: "cancelled", runStatus: "stopped", parts: [expect.objectContaining({ status: "cancelled" })] });
    const partId = (await db().perfRunPart.findFirstOrThrow({ where: { resultId: first.resultId } })).id;
    const ns = await db().namespace.findUniqueOrThrow({ where: { name: "team-a" } });
    expect((await (await runnerQueue()).getJobById(namespaceQueue(ns.id), partId))?.state).toBe("cancelled");
    expect((await call("DELETE", `/api/v1/runner-tasks/${first.id}?namespace=team-a`, { cookie })).status).toBe(409);
    expect((await call("GET", `/api/v1/runner-tasks/${second.id}/queue-position?namespace=team-a`, { cookie })).body).toMatchObject({ position: 1, ahead: 0 });
    await call("DELETE", `/api/v1/runner-tasks/${second.id}?namespace=team-a`, { cookie });
    await call("POST", `/api/v1/runners/${a.id}/heartbeat`, { token: tokenA, body: { activeVus: 0, status: "offline" } });
  });

  it("an agent registering the name of an offline one takes its place; what the old one was running is lost", async () => {
    const old = (await register(tokenA, "phoenix", 10)).body;
    const cfg = await config("team-a", { vus: 1, iterations: 1 });
    const task = (await submit("team-a", { configId: cfg.id })).body;
    const { part } = (await call("POST", `/api/v1/runners/${old.id}/claim`, { token: tokenA, body: { waitSeconds: 0, freeVus: 10 } })).body;
    expect(part.taskId).toBe(task.id);
    await call("POST", `/api/v1/runners/${old.id}/heartbeat`, { token: tokenA, body: { activeVus: 0, status: "offline" } });
    const reborn = (await register(tokenA, "phoenix", 10)).body;
    expect(reborn.id).toBe(old.id);
    const done = (await ended(task.id)).body;
    expect(done).toMatchObject({ status: "completed", runStatus: "failed", parts: [expect.objectContaining({ status: "lost", reason: expect.stringContaining("restarted") })] });
    await call("POST", `/api/v1/runners/${old.id}/heartbeat`, { token: tokenA, body: { activeVus: 0, status: "offline" } });
  });
});

describe("runner agents running load tests", () => {
  it("two agents split a task; the merged result counts every request exactly once", async () => {
    for (const name of ["agent-1", "agent-2"]) {
      const agent = new RunnerAgent({ server: base, token: tokenA, name, capacityVus: 5, claimWaitSeconds: 2, log: () => {} });
      agents.push(agent);
      await agent.start();
    }
    target.seen.length = 0;
    // 10 VUs on runners of 5: two parts of 5 VUs and 100 iterations each, about 2 s apiece.
    const cfg = await config("team-a", { scenarios: { shared: { executor: "shared-iterations", vus: 10, iterations: 200, maxDuration: "60s" } } });
    const task = await submit("team-a", { configId: cfg.id });
    expect(task.body).toMatchObject({ status: "queued", vus: 10, partCount: 2 });
    const done = await ended(task.body.id);
    expect(done.body).toMatchObject({ status: "completed", runStatus: "passed" });
    expect(target.seen.length).toBe(200);
    const result = await db().perfResult.findUniqueOrThrow({ where: { id: task.body.resultId }, include: { run: true, parts: true } });
    expect(httpReqs(result.summary)).toBe(200);
    expect(result.runGroupId).toBe(result.id);
    expect(result.run.counts).toMatchObject({ requests: 200 });
    // Each runner ran one half (neither has room for both at once).
    expect(new Set(result.parts.map((p) => p.runnerId)).size).toBe(2);
    expect(done.body.parts.map((p: { requests: number }) => p.requests)).toEqual([100, 100]);
    await Promise.all(agents.splice(0).map((a) => a.stop()));
  }, 60_000);

  it("a killed agent's part is lost: the run fails naming it and still counts what the part reported", async () => {
    const bin = path.resolve(import.meta.dirname, "../../../bin/polymock.mjs");
    const child = spawn(process.execPath, [bin, "runner", "--server", base, "--token", tokenA, "--capacity", "5", "--name", "doomed"], { env: { ...process.env, OUTBOUND_ALLOW_PRIVATE: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const doomed = await until(
      () => db().runner.findFirst({ where: { name: "doomed", status: "online" } }),
      (r) => r !== null,
      60_000,
    );
    expect(doomed, output).not.toBeNull();
    const survivor = new RunnerAgent({ server: base, token: tokenA, name: "survivor", capacityVus: 5, claimWaitSeconds: 2, log: () => {} });
    agents.push(survivor);
    await survivor.start();

    target.seen.length = 0;
    const cfg = await config("team-a", { vus: 10, duration: "8s" });
    const task = (await submit("team-a", { configId: cfg.id })).body;
    expect(task.partCount).toBe(2);
    // The child has sent a snapshot with requests in it: that much must survive it.
    const doomedPart = await until(
      () => db().perfRunPart.findFirst({ where: { resultId: task.resultId, runnerId: doomed!.id } }),
      (p) => p !== null && p.snapshot !== null && ((p.snapshot as { metrics: { http_reqs?: { all: { count: number } } } }).metrics.http_reqs?.all.count ?? 0) > 0,
      30_000,
    );
    expect(doomedPart?.status, output).toBe("running");
    const seenBeforeKill = (doomedPart!.snapshot as { metrics: { http_reqs: { all: { count: number } } } }).metrics.http_reqs.all.count;
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    // A report the child had already sent may still be landing.
    await new Promise((r) => setTimeout(r, 500));
    const lastWord = await db().perfRunPart.findUniqueOrThrow({ where: { id: doomedPart!.id } });
    // Sweep as if 15 s of silence had passed for the killed part only (the survivor keeps reporting).
    await until(
      () => db().perfRunPart.findFirstOrThrow({ where: { resultId: task.resultId, runnerId: survivor.id! } }),
      (p) => p.heartbeatAt!.getTime() > lastWord.heartbeatAt!.getTime() + 1000,
    );
    expect(await sweepLostParts(new Date(lastWord.heartbeatAt!.getTime() + 15_500))).toBe(1);

    const done = await ended(task.id);
    // The task ended with numbers (completed); the run itself failed.
    expect(done.body).toMatchObject({ status: "completed", runStatus: "failed" });
    const result = await db().perfResult.findUniqueOrThrow({ where: { id: task.resultId }, include: { parts: { orderBy: { index: "asc" } } } });
    const count = (p: { snapshot: unknown }) => (p.snapshot as { metrics: { http_reqs: { all: { count: number } } } }).metrics.http_reqs.all.count;
    const lost = result.parts.find((p) => p.runnerId === doomed!.id)!;
    expect(lost.status).toBe("lost");
    expect(result.reason).toContain(`part ${lost.index + 1} of 2 was lost`);
    expect(result.reason).toContain(doomed!.id);
    const survived = result.parts.find((p) => p.runnerId === survivor.id)!;
    expect(survived.status).toBe("passed");
    const reported = count(lost);
    const survivorCount = count(survived);
    expect(reported).toBeGreaterThanOrEqual(seenBeforeKill);
    // Exactly what each part last reported: the killed part's last snapshot, the survivor's whole run.
    expect(httpReqs(result.summary)).toBe(reported + survivorCount);
    expect(target.seen.length).toBeGreaterThanOrEqual(reported + survivorCount);
    await Promise.all(agents.splice(0).map((a) => a.stop()));
  }, 90_000);

  it("an agent that is stopped ends its part failed, saying so, with what it measured, and goes offline", async () => {
    const leaving = new RunnerAgent({ server: base, token: tokenA, name: "leaving", capacityVus: 10, claimWaitSeconds: 2, log: () => {} });
    agents.push(leaving);
    await leaving.start();
    const cfg = await config("team-a", { vus: 2, duration: "30s" });
    const task = (await submit("team-a", { configId: cfg.id })).body;
    await until(
      () => db().perfRunPart.findFirstOrThrow({ where: { resultId: task.resultId } }),
      (p) => p.seq >= 2,
    );
    await leaving.stop();
    const done = (await ended(task.id)).body;
    expect(done).toMatchObject({ status: "completed", runStatus: "failed", parts: [expect.objectContaining({ status: "failed", reason: "runner 'leaving' was shut down during the run" })] });
    expect(done.parts[0].requests).toBeGreaterThan(0);
    const runners = (await call("GET", "/api/v1/runners?namespace=team-a", { cookie })).body.runners;
    expect(runners.find((r: { name: string }) => r.name === "leaving")).toMatchObject({ status: "offline", parts: [] });
    agents.splice(agents.indexOf(leaving), 1);
  }, 60_000);

  it("`polymock runner` stops on Ctrl-C: it says it is offline and exits 0", async () => {
    const bin = path.resolve(import.meta.dirname, "../../../bin/polymock.mjs");
    const child = spawn(process.execPath, [bin, "runner", "--server", base, "--capacity", "3", "--name", "polite"], { env: { ...process.env, POLYMOCK_TOKEN: tokenA }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    const polite = await until(
      () => db().runner.findFirst({ where: { name: "polite", status: "online" } }),
      (r) => r !== null,
      60_000,
    );
    expect(polite, output).not.toBeNull();
    child.kill("SIGINT");
    expect(await exited, output).toBe(0);
    expect(output).toContain("runner stopped");
    expect((await db().runner.findUniqueOrThrow({ where: { id: polite!.id } })).status).toBe("offline");
  }, 90_000);
});
