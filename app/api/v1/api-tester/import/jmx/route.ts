// Import a JMeter plan as collections, one per thread group (preview=true: only the would-be trees); 207 when some items failed.
import { testerImportFormatEndpoints as e } from "@/server/contracts/tester-import-format-endpoints";
import { defineRoute, Reply } from "@/server/http/define-route";
import { readImportRequest } from "@/server/http/import-request";
import { importJmx } from "@/server/services/tester/import-formats";

export const POST = defineRoute(e.jmx, async (input) => {
  const { scope, body } = await readImportRequest(input);
  const result = await importJmx(input.actor, scope, body, input.query);
  return new Reply(result, { status: result.collections.some((c) => c.summary.failedCount > 0) ? 207 : 200 });
});
