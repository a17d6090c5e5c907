// The results of one run group, each with its parts.
import { perfResultEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { perfRunGroup } from "@/server/services/perf/results";

export const GET = defineRoute(e.group, ({ namespace, params }) => perfRunGroup(namespace, params.runGroupId));
