import { organisationEndpoints as e } from "@/server/contracts/organisation-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { deleteFolder, updateFolder } from "@/server/services/folders";

export const PUT = defineRoute(e.updateFolder, ({ namespace, params, body }) => updateFolder(namespace, params.id, body));
export const DELETE = defineRoute(e.deleteFolder, ({ namespace, params }) => deleteFolder(namespace, params.id));
