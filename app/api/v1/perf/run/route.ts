// Start a load test from a k6 script (answers 202: the run goes on in the background).
import { perfRunEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute, Reply } from "@/server/http/define-route";
import { startPerfRun } from "@/server/services/perf/runs";

export const POST = defineRoute(e.run, async ({ actor, namespace, body }) => new Reply(await startPerfRun(actor, namespace, body), { status: 202 }));
