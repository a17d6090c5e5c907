// Import an OpenAPI 2/3.0/3.1 document as a new API tester collection (preview=true: only the would-be tree); 207 when some items failed.
import { testerImportFormatEndpoints as e } from "@/server/contracts/tester-import-format-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { importReply, readImportRequest } from "@/server/http/import-request";
import { importFormat } from "@/server/services/tester/import-formats";

export const POST = defineRoute(e.openapi, async (input) => {
  const { scope, body } = await readImportRequest(input);
  return importReply(await importFormat("openapi", input.actor, scope, body, input.query));
});
