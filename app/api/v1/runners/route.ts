// Runner agents that may serve the namespace, with their status and current parts.
import { runnerEndpoints as e } from "@/server/contracts/runner-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { listRunners } from "@/server/services/runners/registry";

export const GET = defineRoute(e.list, ({ namespace }) => listRunners(namespace));
