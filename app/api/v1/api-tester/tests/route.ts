// Standalone tests of the namespace: list and create.
import { testerTestEndpoints as e } from "@/server/contracts/tester-tests-schedules";
import { defineRoute } from "@/server/http/define-route";
import { createTest, listTests } from "@/server/services/tester/standalone-tests";

export const GET = defineRoute(e.list, ({ namespace, query }) => listTests(namespace, query));
export const POST = defineRoute(e.create, ({ actor, namespace, body }) => createTest(actor, namespace, body));
