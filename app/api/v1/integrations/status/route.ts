// Runner status per integration token the caller may manage.
import { runnerEndpoints as e } from "@/server/contracts/runner-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { integrationStatus } from "@/server/services/runners/registry";

export const GET = defineRoute(e.integrationStatus, ({ actor }) => integrationStatus(actor));
