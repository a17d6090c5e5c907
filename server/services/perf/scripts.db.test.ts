// Generated k6 scripts through the real route handlers and a real
// PostgreSQL: the collection-access rules of from-request (own Space 200,
// shared from another Space 403, unreachable 404), the environment choice,
// secrets kept out of scripts, a script the engine refuses as a 400, and
// collectionsToLoadScript — what the collection load runs are built on —
// giving a script that runs on the real engine against a real server.
import { beforeAll, describe, expect, it } from "vitest";
import * as scriptsRoute from "@/app/api/v1/perf/scripts/route";
import * as fromRequestRoute from "@/app/api/v1/perf/scripts/from-request/route";
import * as fromHarRoute from "@/app/api/v1/perf/scripts/from-har/route";
import * as snippetsRoute from "@/app/api/v1/perf/snippets/route";
import * as collectionsRoute from "@/app/api/v1/api-tester/collections/route";
import * as collectionRoute from "@/app/api/v1/api-tester/collections/[id]/route";
import * as foldersRoute from "@/app/api/v1/api-tester/collections/[id]/folders/route";
import * as requestsRoute from "@/app/api/v1/api-tester/collections/[id]/requests/route";
import * as shareSpacesRoute from "@/app/api/v1/api-tester/collections/[id]/sharing/spaces/route";
import * as environmentsRoute from "@/app/api/v1/api-tester/environments/route";
import { AppError } from "@/server/errors";
import { runLoadTest } from "@/server/perf/k6/engine";
import { actorFor, call, signedInOwner } from "@/server/testing/fixtures";
import { useTarget } from "@/server/testing/load-target";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { resolveNamespace } from "../namespace-access";
import { collectionsToLoadScript } from "./scripts";

useTestDatabase();

const A = "perf-a";
const B = "perf-b";
let cookie: string;
let owner: Awaited<ReturnType<typeof signedInOwner>>["user"];
const target = useTarget();
let shop: string;
let listUsers: string;
let scripted: string;
let staging: string;

const post = (route: { POST: any }, path: string, body: unknown, params?: Record<string, string>, ns = A) => call(route.POST, `${path}?namespace=${ns}`, { method: "POST", cookie, body, params });
async function created(r: Promise<{ status: number; body: any }>) {
  const res = await r;
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  ({ user: owner, cookie } = await signedInOwner(A, B));
  const c = "/api/v1/api-tester/collections";
  shop = await created(post(collectionsRoute, c, { name: "Shop", variables: [{ key: "base", value: target.base }, { key: "token", value: "coll-secret", secret: true }], auth: { type: "bearer", bearer: { token: "{{token}}" } } }));
  const folder = await created(post(foldersRoute, `${c}/${shop}/folders`, { name: "Users" }, { id: shop }));
  listUsers = await created(post(requestsRoute, `${c}/${shop}/requests`, { name: "List users", url: "{{base}}/users?who={{who}}", folderId: folder }, { id: shop }));
  await created(post(requestsRoute, `${c}/${shop}/requests`, { name: "Create user", method: "POST", url: "{{base}}/users", body: { mode: "raw", raw: '{"who":"{{who}}"}', language: "json" }, folderId: folder }, { id: shop }));
  scripted = await created(post(requestsRoute, `${c}/${shop}/requests`, { name: "Scripted", url: "{{base}}/s", scripts: { test: "pm.test('ok', () => pm.response.to.have.status(200));" } }, { id: shop }));
  staging = await created(post(environmentsRoute, "/api/v1/api-tester/environments", { name: "Staging", variables: { who: "ann", apiKey: "env-secret" }, secrets: ["apiKey"] }));
});

describe("perf script endpoints", () => {
  it("from-request: the request with its folder and collection settings; secrets named, never written", async () => {
    const r = await post(fromRequestRoute, "/api/v1/perf/scripts/from-request", { requestId: listUsers, environmentId: staging, perfOptions: { vus: 2, duration: "5s" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.options).toEqual({ vus: 2, duration: "5s" });
    expect(r.body.variables).toEqual([
      { name: "base", from: "base", default: target.base, secret: false },
      { name: "who", from: "who", default: "ann", secret: false },
      { name: "token", from: "token", default: null, secret: true },
    ]);
    expect(r.body.script).not.toContain("coll-secret");
    expect(r.body.script).toContain('group("Users", () => {');
    target.seen.length = 0;
    const result = await runLoadTest({ source: r.body.script, options: { vus: 1, iterations: 1, duration: null }, env: { token: "given" } });
    expect(result.errors).toEqual([]);
    expect(target.seen.map((s) => [s.path, s.headers.authorization])).toEqual([["/users?who=ann", "Bearer given"]]);
  });

  it("from-request: environmentVariables replace the environment's values; a scripted request is converted with a note", async () => {
    const r = await post(fromRequestRoute, "/api/v1/perf/scripts/from-request", { requestId: scripted, environmentVariables: { who: "bob" } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.script).toContain("// Not converted: its test script");
    expect(r.body.warnings).toEqual([{ message: "Scripted: its test script not converted (k6 does not run pm.* scripts)" }]);
  });

  it("from-request: 404 for a request out of reach, 403 for one shared from another Space", async () => {
    expect((await post(fromRequestRoute, "/api/v1/perf/scripts/from-request", { requestId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
    expect((await post(fromRequestRoute, "/api/v1/perf/scripts/from-request", { requestId: listUsers, environmentId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
    const share = await post(shareSpacesRoute, `/api/v1/api-tester/collections/${shop}/sharing/spaces`, { namespaces: [B] }, { id: shop });
    expect(share.status, JSON.stringify(share.body)).toBe(200);
    const fromB = await post(fromRequestRoute, "/api/v1/perf/scripts/from-request", { requestId: listUsers }, undefined, B);
    expect(fromB.status).toBe(403);
    expect(fromB.body.error).toMatch(/shared from Space 'perf-a'/);
  });

  it("from config and from HAR; a threshold the engine cannot read is a 400 naming it", async () => {
    const ok = await post(scriptsRoute, "/api/v1/perf/scripts", { requests: [{ url: `${target.base}/x` }], options: { thresholds: { http_req_duration: ["p(95)<300"] } } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.script).toContain('import http from "k6/http";');
    const bad = await post(scriptsRoute, "/api/v1/perf/scripts", { requests: [{ url: `${target.base}/x` }], options: { thresholds: { http_req_duration: ["p95 below 300"] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe("options.thresholds");
    const ftp = await post(scriptsRoute, "/api/v1/perf/scripts", { requests: [{ url: "ftp://x.example/" }] });
    expect(ftp.status).toBe(400);
    expect(ftp.body.details).toEqual([{ location: "body", field: "requests.0.url", message: "not an http(s) URL" }]);

    const har = JSON.stringify({ log: { version: "1.2", entries: [{ request: { method: "GET", url: "https://app.example/a", headers: [] }, response: { status: 200, headers: [], content: {} } }] } });
    const fromHar = await post(fromHarRoute, "/api/v1/perf/scripts/from-har", { har });
    expect(fromHar.status, JSON.stringify(fromHar.body)).toBe(200);
    expect(fromHar.body.variables[0]).toMatchObject({ name: "BASE_URL", default: "https://app.example" });
    const broken = await post(fromHarRoute, "/api/v1/perf/scripts/from-har", { har: '{"log": {"entries": [\n  {"request": }' });
    expect(broken.status).toBe(400);
    expect(broken.body.details[0]).toMatchObject({ field: "har", line: 2 });
    const snippets = await call(snippetsRoute.GET, "/api/v1/perf/snippets", { cookie });
    expect(snippets.status).toBe(200);
    expect(snippets.body.snippets.length).toBeGreaterThan(10);
  });
});

describe("collectionsToLoadScript", () => {
  const actor = () => actorFor(owner);

  it("refuses a scripted request by name; without it, a script that runs, secrets as the run's environment", async () => {
    const scope = await resolveNamespace(actor(), A);
    const refused = await collectionsToLoadScript(actor(), scope, { collectionIds: [shop], environmentId: staging }).catch((e: AppError) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(400);
    expect((refused as AppError).details).toEqual([{ location: "body", field: "collectionIds", message: "Scripted needs a dedicated load script: its test script", requestId: scripted, request: "Scripted" }]);

    const all = await collectionsToLoadScript(actor(), scope, { collectionIds: [shop], environmentId: staging, skipUnsupported: true, perfOptions: { vus: 1, iterations: 2 } });
    expect(all.warnings).toEqual([{ message: "Scripted: left out, needs a dedicated load script: its test script" }]);
    expect(all).toMatchObject({ collectionIds: [shop], environmentId: staging, env: { token: "coll-secret" }, options: { vus: 1, iterations: 2 } });
    target.seen.length = 0;
    const result = await runLoadTest({ source: all.script, env: all.env });
    expect(result.status).toBe("passed");
    expect(target.seen.map((s) => `${s.method} ${s.path} ${s.headers.authorization} ${s.body}`)).toEqual(Array(2).fill(["GET /users?who=ann Bearer coll-secret ", 'POST /users Bearer coll-secret {"who":"ann"}']).flat());
  });

  it("a selection of requests; environment overrides; 404, 403 and unknown requests", async () => {
    const scope = await resolveNamespace(actor(), A);
    const one = await collectionsToLoadScript(actor(), scope, { selections: [{ collectionId: shop, requestIds: [listUsers] }], environmentVariables: { who: "zed" }, environmentId: null });
    expect(one.script.match(/http\.\w+\(/g)).toEqual(["http.get("]);
    expect(one.variables.find((v) => v.name === "who")?.default).toBe("zed");
    expect(one.environmentId).toBeNull();
    const status = (p: Promise<unknown>) => p.then(() => 200, (e: AppError) => e.status);
    expect(await status(collectionsToLoadScript(actor(), scope, { collectionIds: [{ collectionId: shop, requestIds: [staging] }] }))).toBe(400);
    expect(await status(collectionsToLoadScript(actor(), scope, { collectionIds: ["00000000-0000-4000-8000-000000000000"] }))).toBe(404);
    expect(await status(collectionsToLoadScript(actor(), scope, { collectionIds: [] }))).toBe(400);
    const inB = await resolveNamespace(actor(), B);
    expect(await status(collectionsToLoadScript(actor(), inB, { collectionIds: [shop] }))).toBe(403);
    await call(collectionRoute.DELETE, `/api/v1/api-tester/collections/${shop}?namespace=${A}`, { method: "DELETE", cookie, params: { id: shop } });
    expect(await status(collectionsToLoadScript(actor(), scope, { collectionIds: [shop] }))).toBe(409);
  });
});
