// Import an MCP server's tools (a tools/list document or a live URL) as a new API tester collection (preview=true: only the would-be tree); 207 when some items failed.
import { testerImportFormatEndpoints as e } from "@/server/contracts/tester-import-format-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { importReply, readImportRequest } from "@/server/http/import-request";
import { importFormat } from "@/server/services/tester/import-formats";

export const POST = defineRoute(e.mcp, async (input) => {
  const { scope, body } = await readImportRequest(input);
  return importReply(await importFormat("mcp", input.actor, scope, body, input.query));
});
