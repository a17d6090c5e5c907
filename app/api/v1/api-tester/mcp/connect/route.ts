// Connect to an MCP server: server info and capabilities.
import { testerHelperEndpoints as e } from "@/server/contracts/tester-helpers";
import { defineRoute } from "@/server/http/define-route";
import { mcpConnect } from "@/server/services/tester/helpers/mcp";

export const POST = defineRoute(e.mcpConnect, ({ body }) => mcpConnect(body));
