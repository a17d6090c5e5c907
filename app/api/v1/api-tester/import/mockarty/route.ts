// A native collection document (what the export writes) as a new collection; 207 when some items failed.
import { testerImportEndpoints as e } from "@/server/contracts/tester-import-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { importReply, readImportRequest } from "@/server/http/import-request";
import { importNativeCollection } from "@/server/services/tester/import-collection";

export const POST = defineRoute(e.mockarty, async (input) => {
  const { scope, body } = await readImportRequest(input);
  return importReply(await importNativeCollection(input.actor, scope, body, input.query));
});
