import { generatorEndpoints } from "@/server/contracts/generators";
import { defineRoute } from "@/server/http/define-route";
import { previewGenerator } from "@/server/services/generators";

export const POST = defineRoute(generatorEndpoints.asyncapi.preview, ({ namespace, body }) => previewGenerator("asyncapi", namespace, body));
