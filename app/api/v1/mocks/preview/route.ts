import { organisationEndpoints as e } from "@/server/contracts/organisation-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { previewFromBody, previewFromQuery } from "@/server/serving/preview";

export const GET = defineRoute(e.preview, ({ namespace, query }) => previewFromQuery(namespace, query));
// Extension: the same preview with the request in a JSON body, for requests too big for a URL.
export const POST = defineRoute(e.previewPost, ({ namespace, body }) => previewFromBody(namespace, body));
