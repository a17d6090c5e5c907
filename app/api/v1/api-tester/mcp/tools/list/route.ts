// List an MCP server's tools.
import { testerHelperEndpoints as e } from "@/server/contracts/tester-helpers";
import { defineRoute } from "@/server/http/define-route";
import { mcpListTools } from "@/server/services/tester/helpers/mcp";

export const POST = defineRoute(e.mcpToolsList, ({ body }) => mcpListTools(body));
