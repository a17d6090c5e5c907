// Call an MCP tool.
import { testerHelperEndpoints as e } from "@/server/contracts/tester-helpers";
import { defineRoute } from "@/server/http/define-route";
import { mcpCallTool } from "@/server/services/tester/helpers/mcp";

export const POST = defineRoute(e.mcpToolsCall, ({ body }) => mcpCallTool(body));
