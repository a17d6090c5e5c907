// Load tests of collections through the real route handlers, a real
// PostgreSQL and a real HTTP target: execute-perf answers the completed load
// test run (or streams it), keeps nothing with isDebug, refuses a CI trigger
// it has no service for (503) and a scripted request (400 naming it);
// perf/run-collection answers 202 and the run ends with the requests sent.
import { beforeAll, describe, expect, it } from "vitest";
import * as executePerfRoute from "@/app/api/v1/api-tester/collections/execute-perf/route";
import * as collectionsRoute from "@/app/api/v1/api-tester/collections/route";
import * as requestsRoute from "@/app/api/v1/api-tester/collections/[id]/requests/route";
import * as runCollectionRoute from "@/app/api/v1/perf/run-collection/route";
import { createCaller } from "@/server/api/root";
import type { TrpcContext } from "@/server/api/trpc";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { actorFor, call, signedInOwner } from "@/server/testing/fixtures";
import { useTarget } from "@/server/testing/load-target";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "perf-coll";
let cookie: string;
let owner: Awaited<ReturnType<typeof signedInOwner>>["user"];
const target = useTarget();
let shop: string;
let scripted: string;

const post = (route: { POST: any }, path: string, body: unknown, params?: Record<string, string>) => call(route.POST, `${path}?namespace=${NS}`, { method: "POST", cookie, body, params });

beforeAll(async () => {
  ({ user: owner, cookie } = await signedInOwner(NS));
  const c = "/api/v1/api-tester/collections";
  shop = (await post(collectionsRoute, c, { name: "Shop", variables: [{ key: "base", value: target.base }] })).body.id;
  await post(requestsRoute, `${c}/${shop}/requests`, { name: "List", url: "{{base}}/items" }, { id: shop });
  await post(requestsRoute, `${c}/${shop}/requests`, { name: "Query", method: "POST", url: "{{base}}/graphql", body: { mode: "graphql", graphql: { query: "{ items { id } }" } } }, { id: shop });
  const other = (await post(collectionsRoute, c, { name: "Scripted" })).body.id;
  scripted = other;
  await post(requestsRoute, `${c}/${other}/requests`, { name: "With test", url: `${target.base}/s`, scripts: { test: "pm.test('ok', () => {});" } }, { id: other });
});

const short = { vus: 2, duration: "1s" };

describe("collections as load tests", () => {
  it("execute-perf answers the completed load test run", async () => {
    target.seen.length = 0;
    const r = await post(executePerfRoute, "/api/v1/api-tester/collections/execute-perf", { collectionIds: [shop], perfOptions: short, environmentId: null });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ mode: "load", status: "passed", collectionIds: [shop], name: "Load: Shop" });
    expect(r.body.counts.requests).toBe(target.seen.length);
    expect(target.seen.some((s) => s.path === "/items")).toBe(true);
    const gql = target.seen.find((s) => s.path === "/graphql");
    expect(JSON.parse(gql!.body.toString())).toMatchObject({ query: "{ items { id } }" });
    expect(await db().perfResult.findUnique({ where: { id: r.body.id } })).toMatchObject({ status: "passed" });
  });

  it("execute-perf with useSSE streams started, progress points and the finished run", async () => {
    const r = await call(executePerfRoute.POST, `/api/v1/api-tester/collections/execute-perf?namespace=${NS}`, { method: "POST", cookie, body: { collectionIds: [shop], perfOptions: { vus: 1, duration: "2s" }, environmentId: null, useSSE: true } });
    expect(r.status).toBe(200);
    const text = r.text as string;
    const events = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events[0]).toBe("started");
    expect(events).toContain("progress");
    expect(events.at(-1)).toBe("finished");
    const finished = JSON.parse(text.slice(text.lastIndexOf("data: ") + 6).trim());
    expect(finished.testRun).toMatchObject({ mode: "load", status: "passed" });
    expect(finished.result.summaryText).toContain("http_reqs");
  });

  it("isDebug keeps nothing in the history; a CI trigger without a service is 503", async () => {
    const before = await db().testRun.count({ where: { mode: "load" } });
    const r = await post(executePerfRoute, "/api/v1/api-tester/collections/execute-perf", { collectionIds: [shop], perfOptions: { vus: 1, iterations: 2 }, environmentId: null, isDebug: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe("passed");
    expect(await db().testRun.count({ where: { mode: "load" } })).toBe(before);
    const ci = await post(executePerfRoute, "/api/v1/api-tester/collections/execute-perf", { collectionIds: [shop], ciTriggerId: "nightly" });
    expect(ci.status).toBe(503);
  });

  it("a request with a script needs a dedicated load script: 400 naming it", async () => {
    const r = await post(executePerfRoute, "/api/v1/api-tester/collections/execute-perf", { collectionIds: [scripted], environmentId: null });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain("With test");
  });

  it("perf/run-collection answers 202 and the run ends with the requests sent", async () => {
    const r = await post(runCollectionRoute, "/api/v1/perf/run-collection", { collectionIds: [{ collectionId: shop }], perfOptions: { vus: 1, iterations: 3 }, environmentId: null, name: "Nightly shop" });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body).toMatchObject({ status: "queued", taskId: r.body.id });
    const end = Date.now() + 20_000;
    let result = await db().perfResult.findUniqueOrThrow({ where: { id: r.body.id }, include: { run: true } });
    while (["queued", "running"].includes(result.status) && Date.now() < end) {
      await new Promise((res) => setTimeout(res, 100));
      result = await db().perfResult.findUniqueOrThrow({ where: { id: r.body.id }, include: { run: true } });
    }
    expect(result.status).toBe("passed");
    expect(result.run).toMatchObject({ name: "Nightly shop", collectionIds: [shop] });
    // Three iterations of the collection's two requests.
    expect((result.run.counts as { requests: number }).requests).toBe(6);
  });

  it("the UI's tRPC procedures: runCollection starts the run, fromCollections gives the script to save, a scripted request is refused by name", async () => {
    const api = createCaller({ actor: actorFor(owner), authError: null, ip: "127.0.0.1", userAgent: null, requestId: "test" } satisfies TrpcContext);
    const started = await api.perf.runCollection({ namespace: NS, run: { collectionIds: [shop], perfOptions: { vus: 1, iterations: 2 }, environmentId: null } });
    const end = Date.now() + 20_000;
    let result = await db().perfResult.findUniqueOrThrow({ where: { id: started.id } });
    while (["queued", "running"].includes(result.status) && Date.now() < end) {
      await new Promise((res) => setTimeout(res, 100));
      result = await db().perfResult.findUniqueOrThrow({ where: { id: started.id } });
    }
    expect(result.status).toBe("passed");

    const g = await api.perfScripts.fromCollections({ namespace: NS, request: { collectionIds: [shop], perfOptions: { vus: 3, duration: "5s" }, environmentId: null } });
    expect(g).toMatchObject({ collectionIds: [shop], environmentId: null });
    expect(g.script).toContain("/items");
    expect(g.options).toMatchObject({ vus: 3, duration: "5s" });
    expect(g).not.toHaveProperty("env");
    const saved = await api.perf.configs.create({ namespace: NS, config: { name: "Shop under load", description: "", script: g.script, options: {}, environment: {}, files: {}, collectionIds: g.collectionIds, environmentId: g.environmentId } });
    expect(saved.collectionIds).toEqual([shop]);

    const refused = await api.perf.runCollection({ namespace: NS, run: { collectionIds: [scripted], environmentId: null } }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "BAD_REQUEST" });
    const cause = (refused as { cause?: unknown }).cause;
    expect(cause).toBeInstanceOf(AppError);
    expect((cause as AppError).details).toEqual([expect.objectContaining({ request: "With test", message: expect.stringContaining("needs a dedicated load script") })]);
  });
});
