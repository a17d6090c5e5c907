import { generatorEndpoints } from "@/server/contracts/generators";
import { defineRoute } from "@/server/http/define-route";
import { runGenerator } from "@/server/services/generators";

export const POST = defineRoute(generatorEndpoints.grpc.generate, ({ actor, namespace, body }) => runGenerator("grpc", actor, namespace, body));
