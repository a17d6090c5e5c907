import { organisationEndpoints as e } from "@/server/contracts/organisation-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { createFolder, listFolders } from "@/server/services/folders";

export const GET = defineRoute(e.listFolders, ({ namespace }) => listFolders(namespace));
export const POST = defineRoute(e.createFolder, ({ namespace, body }) => createFolder(namespace, body));
