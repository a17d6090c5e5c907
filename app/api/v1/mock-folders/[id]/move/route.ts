import { organisationEndpoints as e } from "@/server/contracts/organisation-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { moveFolder } from "@/server/services/folders";

export const PATCH = defineRoute(e.moveFolder, ({ namespace, params, body }) => moveFolder(namespace, params.id, body));
