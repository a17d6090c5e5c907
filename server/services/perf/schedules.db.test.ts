// Load-test schedules through the real route handlers (CRUD, cron and time
// zone 400s, the config checked in the namespace, another namespace's id as
// 404) and the shared scheduler on a controlled clock: an occurrence runs the
// config as the schedule's user and records its result; a user who has left
// the namespace runs nothing and the schedule says why; an occurrence missed
// beyond the catch-up window is skipped and said so; deleting a config takes
// its schedules with it.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as configsRoute from "@/app/api/v1/perf-configs/route";
import * as configRoute from "@/app/api/v1/perf-configs/[id]/route";
import * as listRoute from "@/app/api/v1/perf-schedules/route";
import * as oneRoute from "@/app/api/v1/perf-schedules/[id]/route";
import { createCaller } from "@/server/api/root";
import type { TrpcContext } from "@/server/api/trpc";
import { db } from "@/server/db/client";
import { actorFor, call, makeNamespace, makeUser, sessionCookie, signedInOwner } from "@/server/testing/fixtures";
import { useTarget } from "@/server/testing/load-target";
import { until } from "@/server/testing/until";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { resolveNamespace } from "../namespace-access";
import { Scheduler, type SchedulerClock } from "../tester/scheduler";
import { perfSchedules } from "./perf-scheduler";
import { createPerfSchedule } from "./schedules";

useTestDatabase();

const NS = "perf-sched";
const OTHER = "perf-sched-other";
const target = useTarget();
let owner: { id: string; username: string; role: "admin" | "user" };
let cookie: string;
let colleague: { id: string; username: string; role: "admin" | "user" };
let colleagueCookie: string;
let outsider: string;

beforeAll(async () => {
  ({ user: owner, cookie } = await signedInOwner(NS));
  const c = await makeUser();
  colleague = c.user as typeof colleague;
  await makeNamespace(NS, { [c.user.id]: "editor" });
  colleagueCookie = await sessionCookie(c.user.id);
  ({ cookie: outsider } = await signedInOwner(OTHER));
});

const url = (path: string, ns = NS) => `${path}?namespace=${ns}`;
const createSchedule = (body: unknown, as = cookie, ns = NS) => call(listRoute.POST, url("/api/v1/perf-schedules", ns), { method: "POST", cookie: as, body });
const getSchedule = (id: string, as = cookie, ns = NS) => call(oneRoute.GET, url(`/api/v1/perf-schedules/${id}`, ns), { cookie: as, params: { id } });
const putSchedule = (id: string, body: unknown, as = cookie, ns = NS) => call(oneRoute.PUT, url(`/api/v1/perf-schedules/${id}`, ns), { method: "PUT", cookie: as, body, params: { id } });

async function config(name: string, ns = NS, as = cookie): Promise<string> {
  const r = await call(configsRoute.POST, url("/api/v1/perf-configs", ns), {
    method: "POST",
    cookie: as,
    body: { name, script: "import http from 'k6/http';\nexport const options = { iterations: 2 };\nexport default function () { http.get(__ENV.BASE); }", environment: { BASE: target.base } },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

function manualClock(start: string): SchedulerClock & { set(iso: string): void } {
  let now = new Date(start);
  return { now: () => new Date(now), set: (iso) => void (now = new Date(iso)), setTimeout: () => null, clearTimeout: () => {} };
}

const resultEnded = (id: string) =>
  until(
    () => db().perfResult.findUniqueOrThrow({ where: { id } }),
    (r) => !["queued", "running"].includes(r.status),
  );

describe("load-test schedules: CRUD and validation", () => {
  it("creates with occurrences in its time zone, lists, reads, updates (then runs as the updater) and deletes", async () => {
    const configId = await config("Nightly load");
    const r = await createSchedule({ name: "Weekdays 02:00 Berlin", configId, cron: "0 2 * * 1-5", timezone: "Europe/Berlin" });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ name: "Weekdays 02:00 Berlin", configId, configName: "Nightly load", enabled: true, runsAs: owner.username, lastResultId: null, lastStatus: null });
    expect(r.body.nextOccurrences).toHaveLength(5);
    expect(r.body.nextRunAt).toBe(r.body.nextOccurrences[0]);
    for (const at of r.body.nextOccurrences) expect(new Date(at).getUTCHours()).toBeOneOf([0, 1]);
    const id = r.body.id;
    const list = await call(listRoute.GET, `/api/v1/perf-schedules?namespace=${NS}&configId=${configId}`, { cookie });
    expect(list.body).toMatchObject({ total: 1, schedules: [{ id }] });
    expect((await getSchedule(id)).body.cron).toBe("0 2 * * 1-5");

    const off = await putSchedule(id, { enabled: false }, colleagueCookie);
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, nextRunAt: null, nextOccurrences: [], runsAs: colleague.username });
    const renamed = await putSchedule(id, { name: "Renamed", enabled: true, cron: "@daily", timezone: "UTC" });
    expect(renamed.body).toMatchObject({ name: "Renamed", enabled: true, cron: "@daily", runsAs: owner.username });
    expect(renamed.body.nextRunAt).toMatch(/T00:00:00.000Z$/);

    const del = await call(oneRoute.DELETE, url(`/api/v1/perf-schedules/${id}`), { method: "DELETE", cookie, params: { id } });
    expect(del.status).toBe(200);
    expect((await getSchedule(id)).status).toBe(404);
  });

  it("answers 400 for a bad cron or time zone, 404 for a config not in the namespace or another namespace's schedule", async () => {
    const configId = await config("Validated");
    const badCron = await createSchedule({ name: "x", configId, cron: "61 * * * *" });
    expect(badCron.status).toBe(400);
    expect(badCron.body.details[0].field).toBe("cron");
    const badZone = await createSchedule({ name: "x", configId, cron: "0 * * * *", timezone: "Mars/Olympus" });
    expect(badZone.status).toBe(400);
    expect(badZone.body.details[0].field).toBe("timezone");
    const elsewhere = await config("Elsewhere", OTHER, outsider);
    expect((await createSchedule({ name: "x", configId: elsewhere, cron: "0 * * * *" })).status).toBe(404);
    const s = await createSchedule({ name: "Mine", configId, cron: "0 * * * *" });
    expect((await putSchedule(s.body.id, { configId: elsewhere })).status).toBe(404);
    expect((await getSchedule(s.body.id, outsider, OTHER)).status).toBe(404);
    expect((await putSchedule(s.body.id, { enabled: false }, outsider, OTHER)).status).toBe(404);
    expect((await call(oneRoute.DELETE, url(`/api/v1/perf-schedules/${s.body.id}`, OTHER), { method: "DELETE", cookie: outsider, params: { id: s.body.id } })).status).toBe(404);
    expect((await call(listRoute.GET, url("/api/v1/perf-schedules", OTHER), { cookie: outsider })).body.total).toBe(0);
    // Deleting the config deletes its schedules: they would have nothing to run.
    await call(configRoute.DELETE, url(`/api/v1/perf-configs/${configId}`), { method: "DELETE", cookie, params: { id: configId } });
    expect((await getSchedule(s.body.id)).status).toBe(404);
  });

  it("the tRPC procedures call the same services", async () => {
    const configId = await config("Through tRPC");
    const api = createCaller({ actor: actorFor(owner), authError: null, ip: "127.0.0.1", userAgent: null, requestId: "test" } satisfies TrpcContext).perf.schedules;
    const s = await api.create({ namespace: NS, schedule: { name: "trpc", configId, cron: "15 6 * * *", timezone: "America/New_York", enabled: true } });
    expect((await api.list({ namespace: NS, configId })).schedules.map((x) => x.id)).toEqual([s.id]);
    expect((await api.update({ namespace: NS, id: s.id, patch: { enabled: false } })).enabled).toBe(false);
    expect((await api.get({ namespace: NS, id: s.id })).nextRunAt).toBeNull();
    await api.delete({ namespace: NS, id: s.id });
    await expect(api.get({ namespace: NS, id: s.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("the scheduler runs load-test schedules", () => {
  // The scheduler sees every schedule of the database; each case starts with only its own enabled.
  beforeEach(() => db().perfSchedule.updateMany({ data: { enabled: false } }));

  it("fires a due occurrence once by the controlled clock, running the config as the schedule's user", async () => {
    const configId = await config("Hourly");
    const clock = manualClock("2030-01-01T09:59:00Z");
    const scope = await resolveNamespace(actorFor(colleague), NS);
    const s = await createPerfSchedule(actorFor(colleague), scope, { name: "hourly", configId, cron: "0 * * * *", timezone: "UTC", enabled: true }, clock);
    expect(s.nextRunAt).toBe("2030-01-01T10:00:00.000Z");
    const scheduler = new Scheduler({ clock, kinds: [perfSchedules] });
    expect(await scheduler.tickAndWait()).toEqual([]);
    clock.set("2030-01-01T10:00:05Z");
    target.seen.length = 0;
    const fired = await scheduler.tickAndWait();
    expect(fired).toEqual([expect.objectContaining({ scheduleId: s.id, action: "dispatched", occurrence: "2030-01-01T10:00:00.000Z", error: null })]);
    const result = await resultEnded(fired[0].runId!);
    expect(result).toMatchObject({ status: "passed", configId, createdBy: colleague.username, name: "Hourly" });
    expect(target.seen.length).toBe(2);
    expect(await db().testRun.findUniqueOrThrow({ where: { id: result.id } })).toMatchObject({ mode: "load", referenceId: configId });
    const row = await db().perfSchedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row).toMatchObject({ lastResultId: result.id, lastError: null });
    expect(row.nextRunAt?.toISOString()).toBe("2030-01-01T11:00:00.000Z");
    expect(row.lastRunAt?.toISOString()).toBe("2030-01-01T10:00:00.000Z");
    // The view shows the result's live status.
    expect((await getSchedule(s.id)).body).toMatchObject({ lastResultId: result.id, lastStatus: "passed" });
    expect(await scheduler.tickAndWait()).toEqual([]);
  });

  it("a user who left the namespace runs nothing: lastError says why; saving it again adopts it", async () => {
    const leaver = await makeUser();
    await makeNamespace(NS, { [leaver.user.id]: "editor" });
    const configId = await config("Adopted");
    const clock = manualClock("2032-02-02T01:59:00Z");
    const actor = actorFor(leaver.user as typeof owner);
    const s = await createPerfSchedule(actor, await resolveNamespace(actor, NS), { name: "leaver's", configId, cron: "0 * * * *", timezone: "UTC", enabled: true }, clock);
    await db().membership.deleteMany({ where: { userId: leaver.user.id } });
    const scheduler = new Scheduler({ clock, kinds: [perfSchedules] });
    clock.set("2032-02-02T02:00:10Z");
    const out = await scheduler.tickAndWait();
    expect(out[0]).toMatchObject({ scheduleId: s.id, action: "dispatched", runId: null });
    expect(out[0].error).toMatch(/not run at 2032-02-02T02:00:00.000Z/);
    expect(await db().perfResult.count({ where: { configId } })).toBe(0);
    const row = (await getSchedule(s.id)).body;
    expect(row).toMatchObject({ lastStatus: "not run", runsAs: leaver.user.username });
    expect(row.lastError).toMatch(/not found/);
    // The owner saves it: it runs as them from the next occurrence on.
    const adopted = await putSchedule(s.id, { name: "adopted by the owner" });
    expect(adopted.body.runsAs).toBe(owner.username);
    clock.set("2032-02-02T03:00:10Z");
    const next = await scheduler.tickAndWait();
    expect(next[0]).toMatchObject({ scheduleId: s.id, action: "dispatched", error: null });
    expect((await resultEnded(next[0].runId!)).createdBy).toBe(owner.username);
  });

  it("an occurrence missed beyond the catch-up window is skipped and recorded, not run", async () => {
    const configId = await config("Daily");
    const clock = manualClock("2033-03-03T00:00:00Z");
    const scope = await resolveNamespace(actorFor(owner), NS);
    const s = await createPerfSchedule(actorFor(owner), scope, { name: "daily at 00:30", configId, cron: "30 0 * * *", timezone: "UTC", enabled: true }, clock);
    clock.set("2033-03-03T02:45:00Z");
    const out = await new Scheduler({ clock, kinds: [perfSchedules] }).tickAndWait();
    expect(out).toEqual([expect.objectContaining({ scheduleId: s.id, action: "skipped" })]);
    const row = await db().perfSchedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.lastStatus).toBe("skipped");
    expect(row.lastError).toMatch(/missed/);
    expect(row.nextRunAt?.toISOString()).toBe("2033-03-04T00:30:00.000Z");
    expect(await db().perfResult.count({ where: { configId } })).toBe(0);
  });
});
