// Stop a queued or running load test; what it measured is kept.
import { perfRunEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { stopPerfRun } from "@/server/services/perf/runs";

export const POST = defineRoute(e.stop, ({ namespace, params }) => stopPerfRun(namespace, params.taskId));
