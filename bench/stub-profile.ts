// `node --cpu-prof --import tsx bench/stub-profile.ts W1,W7 [seconds]`: the
// stub path alone (handleStubRequest in a plain node:http server, the real
// recorder, a throwaway database) under wrk, for CPU profiles of the serving
// code without a Next.js build or the launcher's processes. Prints req/s per
// workload; the figures are for profiling, not the bench's ratios (no raw
// yardstick, no front process).
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, ensureTemplate } from "../server/testing/test-db";

const which = (process.argv[2] ?? "W1,W4,W6,W7").split(",");
const seconds = process.argv[3] ?? "8";
// A fresh machine has no migrated template yet (vitest's global setup makes it otherwise).
await ensureTemplate();
const created = await createTestDatabase();
process.env.DATABASE_URL = created.url;
process.env.LOG_LEVEL = "silent";
// After DATABASE_URL: these open the database on first use.
const { MockInput } = await import("../server/contracts/mock");
const { saveMock } = await import("../server/services/mocks");
const { resolveNamespace } = await import("../server/services/namespace-access");
const { handleStubRequest } = await import("../server/transport/http-stub");
const { actorFor, makeNamespace, makeUser } = await import("../server/testing/fixtures");

const { user } = await makeUser();
await makeNamespace("pf", { [user.id]: "owner" });
const actor = actorFor(user);
const scope = await resolveNamespace(actor, "pf");
// The mocks of bench/run.ts's W1, W4, W6 and W7.
const mocks = [
  { http: { route: "/w1/hello", httpMethod: "GET" }, response: { payload: { hello: "world" } } },
  { http: { route: "/w4/items/:id", httpMethod: "GET" }, response: { payload: { id: "$.pathParam.id", uuid: "$.fake.UUID" } } },
  { sse: { eventPath: "/w6/stream", eventName: "tick" }, response: { sseEventChain: { events: [{ data: { n: 1 } }, { data: { n: 2 } }, { data: { n: 3, id: "$.fake.UUID" } }] } } },
  { graphql: { operation: "query", field: "user" }, response: { payload: { id: "$.req.id", name: "Ada" } } },
];
for (const m of mocks) await saveMock(actor, scope, MockInput.parse(m));

const server = http.createServer((req, res) => void handleStubRequest(req, res, "profile"));
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stubs/pf`;
const dir = mkdtempSync(path.join(os.tmpdir(), "polymock-profile-"));
const W7_BODY = JSON.stringify({ query: "query User($id: ID!) { user(id: $id) { id name } }", variables: { id: "7" } });
writeFileSync(path.join(dir, "w7.lua"), `wrk.method = "POST"\nwrk.body = ${JSON.stringify(W7_BODY)}\nwrk.headers["Content-Type"] = "application/json"\n`);
writeFileSync(path.join(dir, "w6.lua"), `wrk.headers["Accept"] = "text/event-stream"\n`);
const targets: Record<string, string[]> = {
  W1: [`${base}/w1/hello`],
  W4: [`${base}/w4/items/42`],
  W6: ["-s", path.join(dir, "w6.lua"), `${base}/w6/stream`],
  W7: ["-s", path.join(dir, "w7.lua"), `${base}/graphql`],
};

for (const w of which) {
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn("wrk", ["-t1", "-c10", `-d${seconds}s`, ...targets[w]]);
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.on("error", reject);
    child.on("close", () => resolve(text));
  });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
  const non2xx = /Non-2xx[^\d]+(\d+)/.exec(out)?.[1] ?? "0";
  console.log(`${w}: ${rps} req/s, ${non2xx} non-2xx`);
}
server.close();
await created.drop();
process.exit(0);
