// Cron schedules: CRUD through the routes, validation 400s, the owner and
// exact-namespace rule (404 for anyone else), reference checks, 503 when the
// database cannot be reached (no run starts), and the scheduler with a
// controllable clock: occurrences fire, revoked access stops dispatch, two
// schedulers on one database run each occurrence once, and the catch-up-once
// rule for occurrences missed while down.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as collectionsRoute from "@/app/api/v1/api-tester/collections/route";
import * as collectionRoute from "@/app/api/v1/api-tester/collections/[id]/route";
import * as requestsRoute from "@/app/api/v1/api-tester/collections/[id]/requests/route";
import * as environmentsRoute from "@/app/api/v1/api-tester/environments/route";
import * as listRoute from "@/app/api/v1/api-tester/schedules/route";
import * as oneRoute from "@/app/api/v1/api-tester/schedules/[id]/route";
import * as runRoute from "@/app/api/v1/api-tester/schedules/[id]/run/route";
import * as testRunRoute from "@/app/api/v1/api-tester/test-runs/[id]/route";
import { createCaller } from "@/server/api/root";
import type { TrpcContext } from "@/server/api/trpc";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { actorFor, call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { resolveNamespace } from "../namespace-access";
import { planOccurrence, Scheduler, type SchedulerClock } from "./scheduler";
import { createSchedule as createScheduleService, triggerSchedule } from "./schedules";

useTestDatabase();

const NS = "sched";
const q = `?namespace=${NS}`;
let owner: { id: string; username: string; role: "admin" | "user" };
let cookie: string;
let colleague: string;
let colleagueId: string;
let outsider: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  owner = o.user as typeof owner;
  const c = await makeUser();
  colleagueId = c.user.id;
  await makeNamespace(NS, { [c.user.id]: "editor" });
  const x = await makeUser({ namespaces: { "sched-other": "owner" } });
  cookie = await sessionCookie(o.user.id);
  colleague = await sessionCookie(c.user.id);
  outsider = await sessionCookie(x.user.id);
  server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const post = (route: { POST: any }, path: string, body: unknown, opts: { params?: Record<string, string>; as?: string; ns?: string } = {}) =>
  call(route.POST, `${path}?namespace=${opts.ns ?? NS}`, { method: "POST", cookie: opts.as ?? cookie, body, params: opts.params });

async function collection(name: string, as = cookie) {
  const r = await post(collectionsRoute, "/api/v1/api-tester/collections", { name }, { as });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const id = r.body.id as string;
  const req = await post(requestsRoute, `/api/v1/api-tester/collections/${id}/requests`, { name: "ping", url: `${base}/ping`, scripts: { test: "pm.test('ok', () => pm.response.to.have.status(200))" } }, { params: { id }, as });
  expect(req.status).toBe(201);
  return id;
}

const createSchedule = (body: Record<string, unknown>, as = cookie, ns = NS) => post(listRoute, "/api/v1/api-tester/schedules", body, { as, ns });
const getSchedule = (id: string, as = cookie, ns = NS) => call(oneRoute.GET, `/api/v1/api-tester/schedules/${id}?namespace=${ns}`, { cookie: as, params: { id } });
const putSchedule = (id: string, body: unknown, as = cookie) => call(oneRoute.PUT, `/api/v1/api-tester/schedules/${id}${q}`, { method: "PUT", cookie: as, body, params: { id } });
const deleteSchedule = (id: string, as = cookie) => call(oneRoute.DELETE, `/api/v1/api-tester/schedules/${id}${q}`, { method: "DELETE", cookie: as, params: { id } });
const trigger = (id: string, as = cookie, body: unknown = {}) => post(runRoute, `/api/v1/api-tester/schedules/${id}/run`, body, { params: { id }, as });
const runsOf = (scheduleId: string) => db().testRun.findMany({ where: { referenceId: scheduleId }, orderBy: { createdAt: "asc" } });

/** A clock tests move by hand; timers never fire on their own. */
function manualClock(start: string): SchedulerClock & { set(iso: string): void } {
  let now = new Date(start);
  return { now: () => new Date(now), set: (iso) => void (now = new Date(iso)), setTimeout: () => null, clearTimeout: () => {} };
}

describe("schedules: CRUD and validation", () => {
  it("creates with the next occurrence computed in the time zone, reads, lists, updates and deletes", async () => {
    const col = await collection("Nightly");
    const r = await createSchedule({ name: "Weekdays 09:00 Berlin", cron: "0 9 * * 1-5", timezone: "Europe/Berlin", collectionIds: [col], environmentId: null });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ name: "Weekdays 09:00 Berlin", cron: "0 9 * * 1-5", timezone: "Europe/Berlin", collectionIds: [col], environmentId: null, enabled: true, owner: owner.username, lastRunId: null });
    expect(r.body.nextOccurrences).toHaveLength(5);
    expect(r.body.nextRunAt).toBe(r.body.nextOccurrences[0]);
    // 09:00 in Berlin is 07:00 or 08:00 UTC depending on summer time.
    for (const at of r.body.nextOccurrences) expect(new Date(at).getUTCHours()).toBeOneOf([7, 8]);
    const id = r.body.id;
    expect((await getSchedule(id)).body.id).toBe(id);
    const list = await call(listRoute.GET, `/api/v1/api-tester/schedules${q}`, { cookie });
    expect(list.body.schedules.map((s: { id: string }) => s.id)).toContain(id);

    const off = await putSchedule(id, { enabled: false, name: "Paused" });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, name: "Paused", nextRunAt: null, nextOccurrences: [] });
    const on = await putSchedule(id, { enabled: true, cron: "*/30 * * * *", timezone: "UTC" });
    expect(on.body.enabled).toBe(true);
    expect(new Date(on.body.nextRunAt).getUTCMinutes() % 30).toBe(0);

    expect((await deleteSchedule(id)).status).toBe(200);
    expect((await getSchedule(id)).status).toBe(404);
    expect((await deleteSchedule(id)).status).toBe(404);
  });

  it("400 naming cron with croner's message, and for a time zone that is not IANA", async () => {
    const col = await collection("Validated");
    const badCron = await createSchedule({ name: "x", cron: "61 * * * *", collectionIds: [col] });
    expect(badCron.status).toBe(400);
    expect(JSON.stringify(badCron.body)).toContain("cron");
    expect(JSON.stringify(badCron.body)).toMatch(/Invalid value for minute: 61/);
    const sixFields = await createSchedule({ name: "x", cron: "*/5 * * * * *", collectionIds: [col] });
    expect(sixFields.status).toBe(400);
    const badZone = await createSchedule({ name: "x", cron: "0 * * * *", timezone: "Mars/Olympus", collectionIds: [col] });
    expect(badZone.status).toBe(400);
    expect(JSON.stringify(badZone.body)).toContain("timezone");
    const none = await createSchedule({ name: "x", cron: "0 * * * *", collectionIds: [] });
    expect(none.status).toBe(400);
    expect(await db().testerSchedule.count({ where: { name: "x" } })).toBe(0);
  });

  it("refuses unknown and other-namespace references with the same 404 message shape, nothing saved", async () => {
    const r0 = await post(collectionsRoute, "/api/v1/api-tester/collections", { name: "Theirs" }, { as: outsider, ns: "sched-other" });
    expect(r0.status).toBe(201);
    const theirs = r0.body.id;
    const unknown = "00000000-0000-4000-8000-000000000001";
    const a = await createSchedule({ name: "refs", cron: "0 * * * *", collectionIds: [unknown] });
    const b = await createSchedule({ name: "refs", cron: "0 * * * *", collectionIds: [theirs] });
    expect(a.status).toBe(404);
    expect(b.status).toBe(404);
    expect(a.body.error.replace(unknown, "ID")).toBe(b.body.error.replace(theirs, "ID"));
    const env = await createSchedule({ name: "refs", cron: "0 * * * *", collectionIds: [await collection("Refs")], environmentId: unknown });
    expect(env.status).toBe(404);
    expect(await db().testerSchedule.count({ where: { name: "refs" } })).toBe(0);
  });

  it("is the owner's only: a colleague in the namespace and an outsider get 404 for read, change, delete and run", async () => {
    const col = await collection("Mine");
    const { body } = await createSchedule({ name: "mine", cron: "0 3 * * *", collectionIds: [col] });
    expect((await getSchedule(body.id, colleague)).status).toBe(404);
    expect((await putSchedule(body.id, { name: "theirs" }, colleague)).status).toBe(404);
    expect((await deleteSchedule(body.id, colleague)).status).toBe(404);
    expect((await trigger(body.id, colleague)).status).toBe(404);
    expect((await getSchedule(body.id, outsider)).status).toBe(404);
    const list = await call(listRoute.GET, `/api/v1/api-tester/schedules${q}`, { cookie: colleague });
    expect(list.body.schedules).toEqual([]);
    // Exact namespace: the owner asking in another namespace does not see it.
    await makeNamespace("sched-second", { [owner.id]: "owner" });
    expect((await getSchedule(body.id, cookie, "sched-second")).status).toBe(404);
    expect(await runsOf(body.id)).toHaveLength(0);
    expect((await getSchedule(body.id)).body.name).toBe("mine");
  });

  it("trigger now runs the collections with the environment applied, as a functional run referencing the schedule", async () => {
    const col = await collection("Triggered");
    const envR = await post(environmentsRoute, "/api/v1/api-tester/environments", { name: "prod", variables: { who: "ada" } });
    await post(requestsRoute, `/api/v1/api-tester/collections/${col}/requests`, { name: "env", url: `${base}/hello/{{who}}` }, { params: { id: col } });
    const { body } = await createSchedule({ name: "trigger", cron: "0 0 1 1 *", collectionIds: [col], environmentId: envR.body.id });
    const r = await trigger(body.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ mode: "functional", referenceId: body.id, status: "passed", environmentId: envR.body.id, collectionIds: [col] });
    expect(r.body.results.map((x: { url: string }) => x.url)).toContain(`${base}/hello/ada`);
    const after = await getSchedule(body.id);
    expect(after.body).toMatchObject({ lastRunId: r.body.id, lastRunStatus: "passed", lastError: null });
    const run = await call(testRunRoute.GET, `/api/v1/api-tester/test-runs/${r.body.id}${q}`, { cookie, params: { id: r.body.id } });
    expect(run.status).toBe(200);
    const sse = await trigger(body.id, cookie, { useSSE: true });
    expect(sse.headers.get("content-type")).toContain("text/event-stream");
    expect(sse.text).toContain("event: finished");
  });

  it("trigger re-checks references: a collection deleted for good since is 404 and no run starts", async () => {
    const col = await collection("Gone soon");
    const { body } = await createSchedule({ name: "gone", cron: "0 0 * * *", collectionIds: [col] });
    await db().testerCollection.delete({ where: { id: col } });
    const r = await trigger(body.id);
    expect(r.status).toBe(404);
    expect(await runsOf(body.id)).toHaveLength(0);
    expect((await call(collectionRoute.GET, `/api/v1/api-tester/collections/${col}${q}`, { cookie, params: { id: col } })).status).toBe(404);
  });

  it("503 when access cannot be verified because the database is unreachable, and no run starts", async () => {
    const col = await collection("Unreachable");
    const { body } = await createSchedule({ name: "db down", cron: "0 0 * * *", collectionIds: [col] });
    const scope = await resolveNamespace(actorFor(owner), NS);
    const realUrl = process.env.DATABASE_URL!;
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/closed";
    let caught: unknown;
    let createCaught: unknown;
    try {
      await triggerSchedule(actorFor(owner), scope, body.id, { useSSE: false }).catch((err) => (caught = err));
      await createScheduleService(actorFor(owner), scope, { name: "while down", cron: "0 0 * * *", timezone: "UTC", collectionIds: [col], environmentId: null, enabled: true }).catch((err) => (createCaught = err));
    } finally {
      process.env.DATABASE_URL = realUrl;
    }
    expect(createCaught).toMatchObject({ code: "unavailable", status: 503 });
    expect(await db().testerSchedule.count({ where: { name: "while down" } })).toBe(0);
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ code: "unavailable", status: 503 });
    expect((caught as Error).message).toMatch(/cannot be verified/);
    expect(await runsOf(body.id)).toHaveLength(0);
  });
});

describe("the scheduler", () => {
  // The scheduler sees every schedule of the database; each case starts with only its own enabled.
  beforeEach(() => db().testerSchedule.updateMany({ data: { enabled: false } }));

  it("fires due occurrences by the controllable clock, once, and records the run", async () => {
    const col = await collection("Clocked");
    const clock = manualClock("2030-01-01T09:59:00Z");
    const scope = await resolveNamespace(actorFor(owner), NS);
    const { createSchedule: create } = await import("./schedules");
    const s = await create(actorFor(owner), scope, { name: "hourly", cron: "0 * * * *", timezone: "UTC", collectionIds: [col], environmentId: null, enabled: true }, clock);
    expect(s.nextRunAt).toBe("2030-01-01T10:00:00.000Z");
    const scheduler = new Scheduler({ clock });
    expect(await scheduler.tickAndWait()).toEqual([]); // not yet due
    clock.set("2030-01-01T10:00:05Z");
    const fired = await scheduler.tickAndWait();
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ scheduleId: s.id, action: "dispatched", occurrence: "2030-01-01T10:00:00.000Z" });
    const runs = await runsOf(s.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ mode: "functional", status: "passed", createdBy: null, referenceId: s.id });
    expect((runs[0].options as { trigger: string }).trigger).toBe("schedule");
    const row = await db().testerSchedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.nextRunAt?.toISOString()).toBe("2030-01-01T11:00:00.000Z");
    expect(row.lastRunId).toBe(runs[0].id);
    expect(row.lastRunAt?.toISOString()).toBe("2030-01-01T10:00:00.000Z");
    expect(await scheduler.tickAndWait()).toEqual([]); // the same occurrence never again
    await db().testerSchedule.update({ where: { id: s.id }, data: { enabled: false } });
  });

  it("two schedulers on one database claiming at once: every occurrence runs exactly once", async () => {
    const col = await collection("Raced");
    const clock = manualClock("2031-05-05T05:59:30Z");
    const scope = await resolveNamespace(actorFor(owner), NS);
    const { createSchedule: create } = await import("./schedules");
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await create(actorFor(owner), scope, { name: `race ${i}`, cron: "*/5 * * * *", timezone: "UTC", collectionIds: [col], environmentId: null, enabled: true }, clock)).id);
    const a = new Scheduler({ clock });
    const b = new Scheduler({ clock });
    for (const at of ["2031-05-05T06:00:01Z", "2031-05-05T06:05:01Z", "2031-05-05T06:10:01Z"]) {
      clock.set(at);
      const [ra, rb] = await Promise.all([a.tickAndWait(), b.tickAndWait()]);
      const dispatched = [...ra, ...rb].filter((o) => o.action === "dispatched");
      expect(dispatched).toHaveLength(ids.length);
      expect(new Set(dispatched.map((o) => o.scheduleId))).toEqual(new Set(ids));
    }
    for (const id of ids) {
      const runs = await runsOf(id);
      expect(runs).toHaveLength(3);
    }
    await db().testerSchedule.updateMany({ where: { id: { in: ids } }, data: { enabled: false } });
  });

  it("revoked access stops later dispatch: lastError says why and no run is made", async () => {
    const col = await collection("Revoked", colleague);
    const clock = manualClock("2032-02-02T01:59:00Z");
    const { createSchedule: create } = await import("./schedules");
    const colleagueUser = await db().user.findUniqueOrThrow({ where: { id: colleagueId } });
    const actor = actorFor({ id: colleagueUser.id, username: colleagueUser.username, role: "user" });
    const scope = await resolveNamespace(actor, NS);
    const s = await create(actor, scope, { name: "revoked", cron: "0 * * * *", timezone: "UTC", collectionIds: [col], environmentId: null, enabled: true }, clock);
    const scheduler = new Scheduler({ clock });
    clock.set("2032-02-02T02:00:10Z");
    await scheduler.tickAndWait();
    expect(await runsOf(s.id)).toHaveLength(1);
    // The colleague leaves the namespace: the next occurrence must not run.
    await db().membership.deleteMany({ where: { userId: colleagueId, namespace: { name: NS } } });
    clock.set("2032-02-02T03:00:10Z");
    const out = await scheduler.tickAndWait();
    expect(out[0]).toMatchObject({ scheduleId: s.id, action: "dispatched", runId: null });
    expect(out[0].error).toMatch(/not run at 2032-02-02T03:00:00.000Z/);
    expect(await runsOf(s.id)).toHaveLength(1);
    const row = await db().testerSchedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.lastError).toMatch(/not found/);
    expect(row.lastRunStatus).toBe("not run");
    expect(row.nextRunAt?.toISOString()).toBe("2032-02-02T04:00:00.000Z");
    await db().testerSchedule.update({ where: { id: s.id }, data: { enabled: false } });
  });

  it("missed occurrences: within the grace window one catch-up run; older ones skipped and recorded, never a backlog", async () => {
    const col = await collection("Missed");
    const clock = manualClock("2033-03-03T00:00:00Z");
    const scope = await resolveNamespace(actorFor(owner), NS);
    const { createSchedule: create } = await import("./schedules");
    const recent = await create(actorFor(owner), scope, { name: "every 10 min", cron: "*/10 * * * *", timezone: "UTC", collectionIds: [col], environmentId: null, enabled: true }, clock);
    const old = await create(actorFor(owner), scope, { name: "daily at 00:30", cron: "30 0 * * *", timezone: "UTC", collectionIds: [col], environmentId: null, enabled: true }, clock);
    // Down for 2 h 45 min: 16 ten-minute occurrences and the daily one (2 h 15 min late) missed.
    clock.set("2033-03-03T02:45:00Z");
    const scheduler = new Scheduler({ clock });
    const out = await scheduler.tickAndWait();
    const byId = new Map(out.map((o) => [o.scheduleId, o]));
    expect(byId.get(recent.id)).toMatchObject({ action: "dispatched", occurrence: "2033-03-03T02:40:00.000Z" });
    expect(byId.get(old.id)).toMatchObject({ action: "skipped" });
    expect(await runsOf(recent.id)).toHaveLength(1);
    expect(await runsOf(old.id)).toHaveLength(0);
    const oldRow = await db().testerSchedule.findUniqueOrThrow({ where: { id: old.id } });
    expect(oldRow.lastError).toMatch(/missed .* skipped/);
    expect(oldRow.nextRunAt?.toISOString()).toBe("2033-03-04T00:30:00.000Z");
    const recentRow = await db().testerSchedule.findUniqueOrThrow({ where: { id: recent.id } });
    expect(recentRow.nextRunAt?.toISOString()).toBe("2033-03-03T02:50:00.000Z");
    await db().testerSchedule.updateMany({ where: { id: { in: [recent.id, old.id] } }, data: { enabled: false } });
  });

  it("plans: a just-due occurrence runs; one exactly at the grace edge still runs", () => {
    const row = { cron: "0 * * * *", timezone: "UTC", nextRunAt: new Date("2034-01-01T10:00:00Z") };
    expect(planOccurrence(row, new Date("2034-01-01T10:00:00Z")).run?.toISOString()).toBe("2034-01-01T10:00:00.000Z");
    const edge = planOccurrence(row, new Date("2034-01-01T11:00:00Z"), 60 * 60 * 1000);
    expect(edge.run?.toISOString()).toBe("2034-01-01T11:00:00.000Z");
    expect(edge.next?.toISOString()).toBe("2034-01-01T12:00:00.000Z");
  });
});

describe("tRPC (the UI's path): the same services and rules", () => {
  const caller = (user: { id: string; username: string; role: "admin" | "user" }) => createCaller({ actor: actorFor(user), authError: null, ip: "127.0.0.1", userAgent: null, requestId: "test" } satisfies TrpcContext).apiTester;

  it("schedules: create, list with occurrences, trigger, and the owner rule; tests: create, run, list with the last run", async () => {
    const col = await collection("Through tRPC");
    const api = caller(owner);
    const s = await api.schedules.create({ namespace: NS, schedule: { name: "trpc", cron: "15 6 * * *", timezone: "America/New_York", collectionIds: [col], environmentId: null, enabled: true } });
    expect(s.nextOccurrences).toHaveLength(5);
    expect((await api.schedules.list({ namespace: NS })).schedules.some((x) => x.id === s.id)).toBe(true);
    const run = await api.schedules.trigger({ namespace: NS, id: s.id });
    expect(run).toMatchObject({ referenceId: s.id, status: "passed" });
    const colleagueUser = await db().user.findUniqueOrThrow({ where: { id: colleagueId } });
    await expect(caller({ id: colleagueUser.id, username: colleagueUser.username, role: "user" }).schedules.get({ namespace: NS, id: s.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(api.schedules.create({ namespace: NS, schedule: { name: "bad", cron: "0 25 * * *", timezone: "UTC", collectionIds: [col], environmentId: null, enabled: true } })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await api.schedules.remove({ namespace: NS, id: s.id });

    const t = await api.tests.create({ namespace: NS, test: { name: "trpc test", description: "", collectionIds: [col], environmentId: null, iterations: null, data: null, delayMs: 0, bail: false } });
    const ran = await api.tests.run({ namespace: NS, id: t.id });
    expect(ran).toMatchObject({ referenceId: t.id, status: "passed" });
    const listed = await api.tests.list({ namespace: NS, search: "trpc" });
    expect(listed.tests[0].lastRun?.id).toBe(ran.id);
  });
});
