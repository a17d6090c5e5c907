// Queued parts that nobody will start, against the real route handlers,
// PostgreSQL and pg-boss: each case reproduces the state a crash or an
// absent runner leaves (a job leased by a claim that died, a job the queue
// failed or lost, a dispatch that stopped halfway, a web-process run never
// started, a runner that does not come back, a namespace no runner serves
// any more), then runs the web process's sweep at a chosen moment. Parts that
// can still run go back to the queue and run; the others end, and their task
// fails saying why (naming the runner it waited for).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as taskRoute from "@/app/api/v1/runner-tasks/[id]/route";
import * as tasksRoute from "@/app/api/v1/runner-tasks/route";
import * as claimRoute from "@/app/api/v1/runners/[id]/claim/route";
import * as heartbeatRoute from "@/app/api/v1/runners/[id]/heartbeat/route";
import * as finishRoute from "@/app/api/v1/runners/[id]/parts/[partId]/finish/route";
import * as progressRoute from "@/app/api/v1/runners/[id]/parts/[partId]/progress/route";
import * as registerRoute from "@/app/api/v1/runners/register/route";
import { db } from "@/server/db/client";
import { RunnerAgent } from "@/server/runner-agent/agent";
import { actorFor, makeUser, signedInOwner } from "@/server/testing/fixtures";
import { useTarget } from "@/server/testing/load-target";
import { routeServer } from "@/server/testing/route-server";
import { until } from "@/server/testing/until";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { createIntegration, createNamespaceIntegration } from "../integrations";
import { resolveNamespace } from "../namespace-access";
import { fetchPart, namespaceQueue, partJobState, runnerOnlyQueue, runnerQueue, stopRunnerQueue } from "../runners/queue";
import { createTestRun } from "../tester/test-runs";
import { sweepStrandedParts } from "./stranded-parts";

useTestDatabase();
const target = useTarget();

const api = routeServer([
  ["/api/v1/runners/register", registerRoute],
  ["/api/v1/runners/[id]/heartbeat", heartbeatRoute],
  ["/api/v1/runners/[id]/claim", claimRoute],
  ["/api/v1/runners/[id]/parts/[partId]/progress", progressRoute],
  ["/api/v1/runners/[id]/parts/[partId]/finish", finishRoute],
  ["/api/v1/runner-tasks", tasksRoute],
  ["/api/v1/runner-tasks/[id]", taskRoute],
]);
const call = api.call;
const NS = "strand-a";
const OTHER = "strand-b";
let base = "";
let cookie = "";
let owner: Awaited<ReturnType<typeof signedInOwner>>;
let token = "";
let otherToken = "";
let nsId = "";
const agents: RunnerAgent[] = [];

beforeAll(async () => {
  base = await api.listen();
  owner = await signedInOwner(NS, OTHER);
  cookie = owner.cookie;
  token = (await createNamespaceIntegration(owner.actor, NS, { name: "runners", permissions: ["read", "write"] })).token;
  otherToken = (await createNamespaceIntegration(owner.actor, OTHER, { name: "elsewhere", permissions: ["read", "write"] })).token;
  nsId = (await db().namespace.findUniqueOrThrow({ where: { name: NS } })).id;
});

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await api.settled();
  await stopRunnerQueue();
  await api.close();
});

const SCRIPT = `import http from 'k6/http';
export default function () { http.get(__ENV.BASE + '/hit'); }`;

async function submit(body: Record<string, unknown> = {}) {
  const cfg = await db().perfConfig.create({ data: { namespaceId: nsId, name: "Load", script: SCRIPT, options: { vus: 1, iterations: 1 }, environment: { BASE: target.base } } });
  const r = await call("POST", `/api/v1/runner-tasks?namespace=${NS}`, { cookie, body: { configId: cfg.id, ...body } });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  const part = await db().perfRunPart.findFirstOrThrow({ where: { resultId: r.body.resultId } });
  return { id: r.body.id as string, resultId: r.body.resultId as string, partId: part.id };
}
const taskView = async (id: string) => (await call("GET", `/api/v1/runner-tasks/${id}?namespace=${NS}`, { cookie })).body;
const register = async (name: string, as = token) => (await call("POST", "/api/v1/runners/register", { token: as, body: { name, capacityVus: 10 } })).body as { id: string; name: string };
const goOffline = (id: string, as = token) => call("POST", `/api/v1/runners/${id}/heartbeat`, { token: as, body: { activeVus: 0, status: "offline" } });
const later = (ms: number) => new Date(Date.now() + ms);
const MINUTE = 60_000;

describe("parts whose job cannot reach a runner", () => {
  it("a job leased by a claim that died (the part still queued) goes back to the queue after a minute, and runs", async () => {
    const hand = await register("by-hand");
    const task = await submit();
    // What a web process dying between pg-boss's fetch and the part's queued → running leaves behind.
    const leased = await fetchPart(namespaceQueue(nsId));
    expect(leased?.id).toBe(task.partId);
    expect(await sweepStrandedParts()).toEqual({ ended: 0, released: 0 });
    expect((await partJobState(namespaceQueue(nsId), task.partId))?.state).toBe("active");

    expect(await sweepStrandedParts(later(MINUTE + 1000))).toEqual({ ended: 0, released: 1 });
    expect((await partJobState(namespaceQueue(nsId), task.partId))?.state).toBe("created");
    await goOffline(hand.id);
    target.seen.length = 0;
    const agent = new RunnerAgent({ server: base, token, name: "agent", capacityVus: 5, claimWaitSeconds: 1, log: () => {} });
    agents.push(agent);
    await agent.start();
    const done = await until(
      () => taskView(task.id),
      (t) => !["queued", "running"].includes(t.status),
      60_000,
    );
    expect(done).toMatchObject({ status: "completed", runStatus: "passed", parts: [expect.objectContaining({ status: "passed", requests: 1 })] });
    expect(target.seen.map((s) => s.path)).toEqual(["/hit"]);
    await Promise.all(agents.splice(0).map((a) => a.stop()));
  }, 60_000);

  it("a job the queue failed, no longer has, or holds cancelled ends its part; the task fails saying why", async () => {
    const hand = await register("by-hand");
    const boss = await runnerQueue();
    const queue = namespaceQueue(nsId);

    const failed = await submit();
    await fetchPart(queue);
    // pg-boss fails an active job whose lease ran out (retryLimit 0): the part never heard of it.
    await boss.fail(queue, failed.partId);
    const gone = await submit();
    await boss.deleteJob(queue, gone.partId);

    // A claim's release (cancel, then resume) that stopped halfway: ended only once that is a minute old.
    const withdrawn = await submit();
    await fetchPart(queue);
    await boss.cancel(queue, withdrawn.partId);

    expect(await sweepStrandedParts()).toEqual({ ended: 2, released: 0 });
    const f = await taskView(failed.id);
    expect(f).toMatchObject({ status: "failed", runStatus: "error", parts: [expect.objectContaining({ status: "error" })] });
    expect(f.error).toBe("could not be handed to a runner: its job in the queue failed (the process that leased it stopped before the part started)");
    const g = await taskView(gone.id);
    expect(g).toMatchObject({ status: "failed", runStatus: "error", error: "could not be handed to a runner: its job is no longer in the queue" });
    // The load run shows as an ended test run, not a queued one forever.
    expect(await db().testRun.findUniqueOrThrow({ where: { id: failed.resultId } })).toMatchObject({ status: "error", statusReason: f.error });
    expect((await taskView(withdrawn.id)).status).toBe("queued");
    expect(await sweepStrandedParts(later(MINUTE + 1000))).toEqual({ ended: 1, released: 0 });
    expect(await taskView(withdrawn.id)).toMatchObject({ status: "failed", error: "could not be handed to a runner: its job was withdrawn from the queue before the part started" });
    await goOffline(hand.id);
  });

  it("a dispatch that stopped before its parts had their jobs ends them after a minute and withdraws the jobs sent", async () => {
    const hand = await register("by-hand");
    const task = await submit();
    // Every job was sent, but the process died before recording them on the parts.
    await db().perfRunPart.updateMany({ where: { resultId: task.resultId }, data: { jobId: null } });
    expect((await sweepStrandedParts()).ended).toBe(0);
    expect((await sweepStrandedParts(later(MINUTE + 1000))).ended).toBe(1);
    expect(await taskView(task.id)).toMatchObject({ status: "failed", error: "the web process stopped while queueing the run for runners" });
    expect((await partJobState(namespaceQueue(nsId), task.partId))?.state).toBe("cancelled");
    await goOffline(hand.id);
  });

  it("a web-process run whose process stopped before starting it ends after a minute", async () => {
    // The rows startPerfRun stores before the web process starts the run itself.
    const scope = await resolveNamespace(owner.actor, NS);
    const id = randomUUID();
    await createTestRun(scope, { id, name: "Orphan", mode: "load", status: "queued" });
    await db().perfResult.create({ data: { id, namespaceId: nsId, runGroupId: id, name: "Orphan", status: "queued", script: SCRIPT } });
    await db().perfRunPart.create({ data: { resultId: id, index: 0, count: 1 } });
    expect((await sweepStrandedParts()).ended).toBe(0);
    expect((await sweepStrandedParts(later(MINUTE + 1000))).ended).toBe(1);
    expect(await db().perfResult.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "error", reason: "the web process that was to run it stopped before it started" });
    expect((await db().testRun.findUniqueOrThrow({ where: { id } })).status).toBe("error");
  });
});

describe("parts waiting for runners that do not come", () => {
  it("a task waiting for one runner fails once that runner has been offline for the grace, naming it", async () => {
    const faraway = await register("faraway");
    const task = await submit({ runnerId: faraway.id });
    await goOffline(faraway.id);
    expect((await sweepStrandedParts(later(9 * MINUTE))).ended).toBe(0);
    expect((await taskView(task.id)).status).toBe("queued");
    expect((await sweepStrandedParts(later(11 * MINUTE))).ended).toBe(1);
    const t = await taskView(task.id);
    expect(t).toMatchObject({ status: "failed", runStatus: "error", parts: [expect.objectContaining({ status: "error" })] });
    expect(t.error).toContain(`runner 'faraway' (${faraway.id}), which the task waited for, has been offline for more than 10 min`);
    // Out of the queue: the job carried the run's __ENV values.
    expect((await partJobState(runnerOnlyQueue(faraway.id), task.partId))?.state).toBe("cancelled");
  });

  it("the grace comes from RUNNER_WAIT_GRACE_SECONDS; a runner that no longer exists fails its task at once", async () => {
    process.env.RUNNER_WAIT_GRACE_SECONDS = "90";
    try {
      const brief = await register("brief");
      const task = await submit({ runnerId: brief.id });
      await goOffline(brief.id);
      expect((await sweepStrandedParts(later(MINUTE))).ended).toBe(0);
      expect((await sweepStrandedParts(later(2 * MINUTE))).ended).toBe(1);
      expect((await taskView(task.id)).error).toContain("runner 'brief'");
      expect((await taskView(task.id)).error).toContain("offline for more than 90 s");
    } finally {
      delete process.env.RUNNER_WAIT_GRACE_SECONDS;
    }
    const doomed = await register("deleted");
    const task = await submit({ runnerId: doomed.id });
    await db().runner.delete({ where: { id: doomed.id } });
    expect((await sweepStrandedParts()).ended).toBe(1);
    expect(await taskView(task.id)).toMatchObject({ status: "failed", error: `runner ${doomed.id}, which the task waited for, no longer exists` });
  });

  it("a task whose runner may no longer serve the namespace (its owner left it) fails at once", async () => {
    const { user: member } = await makeUser({ namespaces: { [NS]: "editor" } });
    const own = await createIntegration(actorFor(member), { name: "members-own", permissions: ["read", "write"] });
    const runner = await register("members-runner", own.token);
    const task = await submit({ runnerId: runner.id });
    expect((await sweepStrandedParts()).ended).toBe(0);
    await db().membership.deleteMany({ where: { userId: member.id } });
    expect((await sweepStrandedParts()).ended).toBe(1);
    expect(await taskView(task.id)).toMatchObject({ status: "failed", error: `runner 'members-runner' (${runner.id}), which the task waited for, may no longer serve namespace '${NS}'` });
    await goOffline(runner.id, own.token);
  });

  it("a namespace's parts fail once no runner that may serve the namespace has been online for the grace", async () => {
    const own = await register("own");
    const task = await submit();
    await goOffline(own.id);
    // Another namespace's runner, online all along, cannot take these parts: it does not count.
    const elsewhere = await register("elsewhere", otherToken);
    await db().runner.update({ where: { id: elsewhere.id }, data: { lastHeartbeatAt: later(11 * MINUTE) } });
    expect((await sweepStrandedParts(later(5 * MINUTE))).ended).toBe(0);
    expect((await taskView(task.id)).status).toBe("queued");
    expect((await sweepStrandedParts(later(11 * MINUTE))).ended).toBe(1);
    expect(await taskView(task.id)).toMatchObject({
      status: "failed",
      runStatus: "error",
      error: `no runner agent that may serve namespace '${NS}' has been online for 10 min (start one with npx polymock runner)`,
    });
    expect((await partJobState(namespaceQueue(nsId), task.partId))?.state).toBe("cancelled");
    await goOffline(elsewhere.id, otherToken);
  });

  it("a runner that stays draining (fresh heartbeats, no new parts) is waited for only the grace, by its task or by its namespace", async () => {
    const drain = (id: string) => call("POST", `/api/v1/runners/${id}/heartbeat`, { token, body: { activeVus: 0, status: "draining" } });
    const chosen = await register("chosen");
    const task = await submit({ runnerId: chosen.id });
    expect((await drain(chosen.id)).status).toBe(200);
    // Its heartbeats go on: it is not offline, it just takes nothing.
    await db().runner.update({ where: { id: chosen.id }, data: { lastHeartbeatAt: later(11 * MINUTE) } });
    expect((await sweepStrandedParts(later(5 * MINUTE))).ended).toBe(0);
    expect((await sweepStrandedParts(later(11 * MINUTE))).ended).toBe(1);
    expect(await taskView(task.id)).toMatchObject({
      status: "failed",
      error: `runner 'chosen' (${chosen.id}), which the task waited for, is draining (it takes no new parts) and the task has waited more than 10 min`,
    });

    // The namespace's parts: a runner that takes parts keeps them waiting; once only a draining one is left, the grace runs.
    await goOffline(chosen.id);
    const taker = await register("taker");
    const other = await register("draining-too");
    await drain(other.id);
    for (const id of [taker.id, other.id]) await db().runner.update({ where: { id }, data: { lastHeartbeatAt: later(11 * MINUTE) } });
    const task2 = await submit();
    expect((await sweepStrandedParts(later(11 * MINUTE))).ended).toBe(0);
    expect((await taskView(task2.id)).status).toBe("queued");
    await goOffline(taker.id);
    expect((await sweepStrandedParts(later(5 * MINUTE))).ended).toBe(0);
    expect((await sweepStrandedParts(later(11 * MINUTE))).ended).toBe(1);
    expect(await taskView(task2.id)).toMatchObject({
      status: "failed",
      error: `every runner agent that may serve namespace '${NS}' is draining (takes no new parts) and the task has waited more than 10 min (start another with npx polymock runner)`,
    });
    await goOffline(other.id);
  });

  it("a part larger than every runner now offers fails once its task is older than the grace, saying how large", async () => {
    const big = (await call("POST", "/api/v1/runners/register", { token, body: { name: "big", capacityVus: 40 } })).body as { id: string };
    const task = await submit({ options: { vus: 30, iterations: 30 } });
    expect(await db().perfRunPart.count({ where: { resultId: task.resultId } })).toBe(1);
    // It comes back smaller (restarted with --capacity 5): nothing can claim 30 VUs at once now.
    expect((await call("POST", `/api/v1/runners/${big.id}/heartbeat`, { token, body: { activeVus: 0, capacityVus: 5 } })).status).toBe(200);
    await db().runner.update({ where: { id: big.id }, data: { lastHeartbeatAt: later(11 * MINUTE) } });
    expect((await sweepStrandedParts(later(5 * MINUTE))).ended).toBe(0);
    expect((await taskView(task.id)).status).toBe("queued");
    expect((await sweepStrandedParts(later(11 * MINUTE))).ended).toBe(1);
    const view = await taskView(task.id);
    expect(view).toMatchObject({ status: "failed", runStatus: "error" });
    expect(view.error).toBe("needs 30 VUs at once, more than any runner that may serve the namespace has offered in the last 10 min (5); raise a runner's --capacity or lower the VUs");
    expect((await partJobState(namespaceQueue(nsId), task.partId))?.state).toBe("cancelled");
    await goOffline(big.id);
  });
});
