// List an MCP server's resources.
import { testerHelperEndpoints as e } from "@/server/contracts/tester-helpers";
import { defineRoute } from "@/server/http/define-route";
import { mcpListResources } from "@/server/services/tester/helpers/mcp";

export const POST = defineRoute(e.mcpResourcesList, ({ body }) => mcpListResources(body));
