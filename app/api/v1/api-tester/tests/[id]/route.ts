// One standalone test: read, change, delete.
import { testerTestEndpoints as e } from "@/server/contracts/tester-tests-schedules";
import { defineRoute } from "@/server/http/define-route";
import { deleteTest, getTest, updateTest } from "@/server/services/tester/standalone-tests";

export const GET = defineRoute(e.get, ({ namespace, params }) => getTest(namespace, params.id));
export const PUT = defineRoute(e.update, ({ namespace, params, body }) => updateTest(namespace, params.id, body));
export const DELETE = defineRoute(e.remove, ({ namespace, params }) => deleteTest(namespace, params.id));
