// The stub path's workloads outside the bench's launcher (bench/stub-profile.ts,
// bench/experiments/lean-http.ts): a throwaway database with namespace "pf"
// holding the mocks of bench/run.ts's W1, W4, W6 and W7, and wrk's Lua scripts
// for the two that need a header or a body; and the throwaway database alone
// (bench/grpc-profile.ts). Call them before importing anything that opens the
// database: they set DATABASE_URL.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, ensureTemplate } from "../server/testing/test-db";

export const W7_BODY = JSON.stringify({ query: "query User($id: ID!) { user(id: $id) { id name } }", variables: { id: "7" } });

/** Each workload's path under /stubs/pf, its wrk script (a file in `dir`) and the request a probe sends. */
export const STUB_WORKLOADS: Record<string, { path: string; lua?: string; init?: RequestInit }> = {
  W1: { path: "/w1/hello" },
  W4: { path: "/w4/items/42" },
  W6: { path: "/w6/stream", lua: "w6.lua", init: { headers: { accept: "text/event-stream" } } },
  W7: { path: "/graphql", lua: "w7.lua", init: { method: "POST", body: W7_BODY, headers: { "content-type": "application/json" } } },
};

/** A throwaway migrated database as DATABASE_URL, with logging silenced; import what opens the database after it. */
export async function throwawayDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  // A fresh machine has no migrated template yet (vitest's global setup makes it otherwise).
  await ensureTemplate();
  const created = await createTestDatabase();
  process.env.DATABASE_URL = created.url;
  process.env.LOG_LEVEL = "silent";
  return created;
}

export async function stubWorkloadDatabase(): Promise<{ dir: string; drop: () => Promise<void> }> {
  const created = await throwawayDatabase();
  // After DATABASE_URL: these open the database on first use.
  const { MockInput } = await import("../server/contracts/mock");
  const { saveMock } = await import("../server/services/mocks");
  const { resolveNamespace } = await import("../server/services/namespace-access");
  const { actorFor, makeNamespace, makeUser } = await import("../server/testing/fixtures");
  const { user } = await makeUser();
  await makeNamespace("pf", { [user.id]: "owner" });
  const actor = actorFor(user);
  const scope = await resolveNamespace(actor, "pf");
  const mocks = [
    { http: { route: "/w1/hello", httpMethod: "GET" }, response: { payload: { hello: "world" } } },
    { http: { route: "/w4/items/:id", httpMethod: "GET" }, response: { payload: { id: "$.pathParam.id", uuid: "$.fake.UUID" } } },
    { sse: { eventPath: "/w6/stream", eventName: "tick" }, response: { sseEventChain: { events: [{ data: { n: 1 } }, { data: { n: 2 } }, { data: { n: 3, id: "$.fake.UUID" } }] } } },
    { graphql: { operation: "query", field: "user" }, response: { payload: { id: "$.req.id", name: "Ada" } } },
  ];
  for (const m of mocks) await saveMock(actor, scope, MockInput.parse(m));
  const dir = mkdtempSync(path.join(os.tmpdir(), "polymock-stub-workloads-"));
  writeFileSync(path.join(dir, "w7.lua"), `wrk.method = "POST"\nwrk.body = ${JSON.stringify(W7_BODY)}\nwrk.headers["Content-Type"] = "application/json"\n`);
  writeFileSync(path.join(dir, "w6.lua"), `wrk.headers["Accept"] = "text/event-stream"\n`);
  return { dir, drop: () => created.drop() };
}
