// Environments of the namespace: list and create.
import { testerEnvironmentEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { createEnvironment, listEnvironments } from "@/server/services/tester/environments";

export const GET = defineRoute(testerEnvironmentEndpoints.list, ({ actor, namespace }) => listEnvironments(actor, namespace));
export const POST = defineRoute(testerEnvironmentEndpoints.create, ({ actor, namespace, body }) => createEnvironment(actor, namespace, body));
