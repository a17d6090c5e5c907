// `npx tsx bench/micro.ts [W4|W6|W7] [iterations]`: the engine's share of a
// stub request on the templated workloads, in process, without sockets or a
// database — the W4 (templated JSON), W6 (SSE chain) and W7 (GraphQL) mocks of
// bench/run.ts, from the request to the bytes the adapter writes. Prints ns per
// request; with an iteration count it runs only that, for instruction counts
// (`valgrind --tool=callgrind`), which stay steady on a busy machine when
// timings do not.
import { MockInput } from "../server/contracts/mock";
import { buildNamespace, handle } from "../server/engine/engine";
import { analyseGraphql, fieldRequestBody, fieldValueOf, graphqlSelector, readGraphqlRequest } from "../server/engine/protocols/graphql";
import type { EngineDeps } from "../server/engine/engine";
import type { EngineRequest } from "../server/engine/types";
import { engineOutput } from "../server/transport/stub-context";
import { streamOutput } from "../server/transport/sse-stub";

const deps: EngineDeps = {
  clock: { now: () => Date.now() },
  random: { next: () => Math.random(), unseeded: true },
  stores: { getGlobal: () => undefined, getChain: () => undefined, setGlobal: () => {}, setChain: () => {} },
  files: { read: () => undefined },
  takeUse: async () => true,
};

const ns = buildNamespace(
  "sandbox",
  [
    { http: { route: "/w4/items/:id", httpMethod: "GET" }, response: { payload: { id: "$.pathParam.id", uuid: "$.fake.UUID" } } },
    { sse: { eventPath: "/w6/stream", eventName: "tick" }, response: { sseEventChain: { events: [{ data: { n: 1 } }, { data: { n: 2 } }, { data: { n: 3, id: "$.fake.UUID" } }] } } },
    { graphql: { operation: "query", field: "user" }, response: { payload: { id: "$.req.id", name: "Ada" } } },
  ].map((input, i) => {
    const parsed = MockInput.parse({ id: `m${i}`, ...input });
    return { mock: { ...parsed, id: parsed.id!, namespace: "sandbox" }, sequence: i, createdAt: 0 };
  }),
);

const request = (method: string, path: string, extra: Partial<EngineRequest> = {}): EngineRequest => ({ namespace: "sandbox", method, path, headers: {}, query: {}, body: undefined, ...extra });
const sync = <T>(r: T | Promise<T>): T => {
  if (r instanceof Promise) throw new Error("the workload's mock should answer synchronously");
  return r;
};

const W7_BODY = JSON.stringify({ query: "query User($id: ID!) { user(id: $id) { id name } }", variables: { id: "7" } });

const cases: Record<string, () => number> = {
  W4() {
    const r = sync(handle(ns, request("GET", "/w4/items/42"), deps));
    if (!r.matched) throw new Error("W4 did not match");
    return engineOutput(r.response, "rid").body.length;
  },
  W6() {
    const r = sync(handle(ns, request("GET", "/w6/stream", { body: {} }), deps, "sse"));
    if (!r.matched) throw new Error("W6 did not match");
    return streamOutput(r.response, r.mock.sse?.eventName, "rid").body.length;
  },
  W7() {
    const read = readGraphqlRequest("POST", "application/json", W7_BODY, {});
    if (!read.ok) throw new Error(read.message);
    const op = analyseGraphql(read.value);
    if (!op.ok) throw new Error(op.message);
    const data: Record<string, unknown> = {};
    for (const field of op.value.fields) {
      const r = sync(handle(ns, request(graphqlSelector(op.value.operation, field.name), "/graphql", { body: fieldRequestBody(op.value, field), rawBody: W7_BODY }), deps, "graphql"));
      if (!r.matched) throw new Error("W7 did not match");
      data[field.responseKey] = fieldValueOf(r.response.body, field.name).value;
    }
    return JSON.stringify({ data }).length;
  },
};

const [only, count] = process.argv.slice(2);
if (count !== undefined) {
  const run = cases[only];
  let sum = 0;
  for (let i = 0; i < Number(count); i++) sum += run();
  if (sum < 0) console.log(sum);
} else {
  for (const [name, run] of Object.entries(cases)) {
    if (only && name !== only) continue;
    for (let i = 0; i < 50_000; i++) run();
    const n = 200_000;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) run();
    console.log(`${name}: ${(Number(process.hrtime.bigint() - t0) / n).toFixed(0)} ns per request (engine and adapter formatting)`);
  }
}
