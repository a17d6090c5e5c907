// One folder: change or move, delete with what is inside.
import { testerFolderEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { deleteFolder, updateFolder } from "@/server/services/tester/folders";

export const PUT = defineRoute(testerFolderEndpoints.update, ({ namespace, params, body }) => updateFolder(namespace, params.id, body));
export const DELETE = defineRoute(testerFolderEndpoints.remove, ({ namespace, params }) => deleteFolder(namespace, params.id));
