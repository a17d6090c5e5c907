import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as health from "@/app/health/route";
import * as ready from "@/app/health/ready/route";
import * as live from "@/app/health/live/route";
import * as metricsRoute from "@/app/metrics/route";
import * as auditExport from "@/app/api/v1/admin/audit/export/route";
import * as auditList from "@/app/api/v1/admin/audit/route";
import * as login from "@/app/api/v1/auth/login/route";
import * as me from "@/app/api/v1/auth/me/route";
import { resetEnvCache } from "@/server/env";
import { observeRequest } from "@/server/observability/metrics";
import { recordAudit } from "@/server/services/audit";
import { call, makeToken, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

describe("health", () => {
  it("reports up with releaseId and the database and cache checks", async () => {
    const res = await call(health.GET, "/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "up", checks: { database: { status: "up" }, cache: { status: "up" } } });
    expect(res.body.releaseId).toMatch(/^\d+\.\d+\.\d+/);
    expect((await call(live.GET, "/health/live")).body).toEqual({ status: "alive" });
    const r = await call(ready.GET, "/health/ready");
    expect(r.status).toBe(200);
    expect(r.body.checks).toMatchObject({ database: { ok: true }, migrations: { ok: true } });
  });

  it("is not 200 when the database is down", async () => {
    const saved = process.env.DATABASE_URL;
    const { disconnectDb } = await import("@/server/db/client");
    await disconnectDb();
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/nothing";
    try {
      const res = await call(health.GET, "/health");
      expect(res.status).toBe(503);
      expect(res.body.status).toBe("down");
      expect(res.body.checks.database.status).toBe("down");
      expect((await call(ready.GET, "/health/ready")).status).toBe(503);
    } finally {
      await disconnectDb();
      process.env.DATABASE_URL = saved;
    }
  });
});

describe("metrics", () => {
  it("exposes request counters and latency histograms by route pattern, and process metrics", async () => {
    observeRequest("GET", "/api/v1/auth/tokens/7d7a0e3c-1111-4a4a-9a9a-000000000000", 200, 0.004);
    observeRequest("GET", "/stubs/sandbox/anything", 404, 0.001);
    const res = await call(metricsRoute.GET, "/metrics");
    expect(res.status).toBe(200);
    expect(res.text).toContain('http_requests_total{method="GET",route="/api/v1/auth/tokens/{id}",status="200"');
    expect(res.text).toContain('route="/stubs"');
    expect(res.text).toContain("http_request_duration_seconds_bucket");
    expect(res.text).toContain("process_cpu_user_seconds_total");
  });
});

describe("audit export", () => {
  it("exports csv, json, syslog and cef, and is admin-only", async () => {
    const { user } = await makeUser({ role: "admin", username: "auditor" });
    const cookie = await sessionCookie(user.id);
    await recordAudit({ actorName: "mallory", action: "auth.login", outcome: "failure", ip: "10.0.0.9", details: { reason: "wrong password" } });
    await recordAudit({ actorName: "=cmd|' /C calc'!A0", action: "token.create", namespace: "sandbox", targetType: "api_token", targetId: "abc" });

    const json = await call(auditExport.GET, "/api/v1/admin/audit/export?format=json", { cookie });
    expect(json.status).toBe(200);
    expect(json.body.events.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(["auth.login", "token.create"]));

    const csv = await call(auditExport.GET, "/api/v1/admin/audit/export?format=csv", { cookie });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="audit-.*\.csv"/);
    expect(csv.text.split("\r\n")[0]).toBe("id,at,actorId,actorName,action,outcome,namespace,targetType,targetId,ip,details");
    expect(csv.text).toContain("'=cmd"); // formula injection neutralised

    const syslog = await call(auditExport.GET, "/api/v1/admin/audit/export?format=syslog", { cookie });
    expect(syslog.text).toMatch(/^<84>1 \S+ polymock polymock - auth\.login \[audit@32473 actor="mallory" outcome="failure" ip="10\.0\.0\.9"\]/m);

    const cef = await call(auditExport.GET, "/api/v1/admin/audit/export?format=cef", { cookie });
    expect(cef.text).toMatch(/^CEF:0\|Polymock\|Polymock\|[^|]+\|auth\.login\|auth login\|6\|rt=\d+ suser=mallory src=10\.0\.0\.9 outcome=failure/m);

    const bad = await call(auditExport.GET, "/api/v1/admin/audit/export?format=xml", { cookie });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]).toMatchObject({ location: "query", field: "format" });

    const paged = await call(auditList.GET, "/api/v1/admin/audit?limit=1", { cookie });
    expect(paged.body).toMatchObject({ limit: 1, offset: 0 });
    expect(paged.body.total).toBeGreaterThanOrEqual(2);

    const plain = await sessionCookie((await makeUser()).user.id);
    expect((await call(auditExport.GET, "/api/v1/admin/audit/export", { cookie: plain })).status).toBe(403);
  });
});

describe("rate limits", () => {
  beforeEach(() => {
    process.env.RATE_LIMIT_DISABLED = "0";
    process.env.RATE_LIMIT_AUTH_PER_MINUTE = "3";
    process.env.RATE_LIMIT_API_PER_MINUTE = "4";
    resetEnvCache();
  });
  afterEach(() => {
    process.env.RATE_LIMIT_DISABLED = "1";
    delete process.env.RATE_LIMIT_AUTH_PER_MINUTE;
    delete process.env.RATE_LIMIT_API_PER_MINUTE;
    resetEnvCache();
  });

  it("limits auth endpoints per IP with 429 and Retry-After", async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await call(login.POST, "/", { method: "POST", ip: "203.0.113.7", body: { username: "x", password: "y" } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.body.code).toBe("rate_limit");
    // Another address is not affected.
    expect((await call(login.POST, "/", { method: "POST", ip: "203.0.113.8", body: { username: "x", password: "y" } })).status).toBe(401);
  });

  it("limits each API key separately", async () => {
    const { user } = await makeUser();
    const a = await makeToken(user);
    const b = await makeToken(user);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(me.GET, "/", { token: a })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect((await call(me.GET, "/", { token: b })).status).toBe(200);
  });
});
