import { specBuilderEndpoint } from "@/server/contracts/spec-builder";
import { defineRoute } from "@/server/http/define-route";
import { buildSpecification } from "@/server/services/spec-builder";

export const POST = defineRoute(specBuilderEndpoint, ({ actor, namespace, body }) => buildSpecification(actor, namespace, body));
