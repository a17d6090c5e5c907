// A Postman environment as a new environment ('secret' values stored sealed).
import { testerImportEndpoints as e } from "@/server/contracts/tester-import-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { readImportRequest } from "@/server/http/import-request";
import { importPostmanEnvironment } from "@/server/services/tester/import-postman";

export const POST = defineRoute(e.postmanEnv, async (input) => {
  const { scope, body } = await readImportRequest(input);
  return importPostmanEnvironment(input.actor, scope, body, input.query);
});
