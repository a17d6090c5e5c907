import { generatorEndpoints } from "@/server/contracts/generators";
import { defineRoute } from "@/server/http/define-route";
import { runGenerator } from "@/server/services/generators";

export const POST = defineRoute(generatorEndpoints.mcp.generate, ({ actor, namespace, body }) => runGenerator("mcp", actor, namespace, body));
