import { organisationEndpoints as e } from "@/server/contracts/organisation-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { createTag, listTags } from "@/server/services/tags";

export const GET = defineRoute(e.listTags, ({ namespace }) => listTags(namespace));
export const POST = defineRoute(e.createTag, ({ namespace, body }) => createTag(namespace, body));
