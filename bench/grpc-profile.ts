// `node --cpu-prof --import tsx bench/grpc-profile.ts [seconds]`: G1's mock on
// the runner's gRPC listener alone (startGrpc, the real recorder, a throwaway
// database) under h2load, for CPU profiles of the gRPC serving path without a
// build or the launcher. Prints calls/s and p50/p99; for profiling, not the
// bench's ratio. The runner runs with RUNNER_HEAP_FLAGS (server/runtime/server-bundle.ts):
// pass them to node here to see its garbage collector as it runs.
import { h2load } from "./grpc/h2load";
import { G1_PROTO, G1_REPLY } from "./grpc/proto";
import { throwawayDatabase } from "./stub-workloads";

const seconds = Number(process.argv[2] ?? 8);
const created = await throwawayDatabase();
// After DATABASE_URL: these open the database on first use.
const { MockInput } = await import("../server/contracts/mock");
const { saveMock } = await import("../server/services/mocks");
const { importProtos } = await import("../server/services/grpc-protos");
const { resolveNamespace } = await import("../server/services/namespace-access");
const { actorFor, makeNamespace, makeUser } = await import("../server/testing/fixtures");
const { logger } = await import("../server/lib/logger");
const { startGrpc } = await import("../protocol-runner/grpc/server");

const { user } = await makeUser();
await makeNamespace("sandbox", { [user.id]: "owner" }).catch(() => {});
const actor = actorFor(user);
const scope = await resolveNamespace(actor, "sandbox");
await importProtos(scope, { name: "bench/greeter.proto", content: G1_PROTO } as never);
await saveMock(actor, scope, MockInput.parse({ id: "g1", grpc: { service: "bench.Greeter", method: "SayHello" }, response: { payload: G1_REPLY } }));
const listener = await startGrpc({ port: 0, host: "127.0.0.1", log: logger(), listenForChanges: false });
const address = `127.0.0.1:${listener.port()}`;
await h2load(address, 1, 10);
const r = await h2load(address, seconds, 10);
console.log(`G1: ${r.rps.toFixed(0)} calls/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.errors} errors`);
await listener.stop();
await created.drop();
process.exit(0);
