import { generatorEndpoints } from "@/server/contracts/generators";
import { defineRoute } from "@/server/http/define-route";
import { runGenerator } from "@/server/services/generators";

export const POST = defineRoute(generatorEndpoints.asyncapi.generate, ({ actor, namespace, body }) => runGenerator("asyncapi", actor, namespace, body));
