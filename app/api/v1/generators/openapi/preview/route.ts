import { generatorEndpoints } from "@/server/contracts/generators";
import { defineRoute } from "@/server/http/define-route";
import { previewGenerator } from "@/server/services/generators";

export const POST = defineRoute(generatorEndpoints.openapi.preview, ({ namespace, body }) => previewGenerator("openapi", namespace, body));
