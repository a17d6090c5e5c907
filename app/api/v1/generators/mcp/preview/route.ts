import { generatorEndpoints } from "@/server/contracts/generators";
import { defineRoute } from "@/server/http/define-route";
import { previewGenerator } from "@/server/services/generators";

export const POST = defineRoute(generatorEndpoints.mcp.preview, ({ namespace, body }) => previewGenerator("mcp", namespace, body));
