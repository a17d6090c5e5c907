// A Postman collection (v2.0 or v2.1) as a new collection; 207 when some items failed to convert.
import { testerImportEndpoints as e } from "@/server/contracts/tester-import-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { importReply, readImportRequest } from "@/server/http/import-request";
import { importPostmanCollection } from "@/server/services/tester/import-postman";

export const POST = defineRoute(e.postman, async (input) => {
  const { scope, body } = await readImportRequest(input);
  return importReply(await importPostmanCollection(input.actor, scope, body, input.query));
});
