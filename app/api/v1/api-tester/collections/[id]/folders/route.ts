// A new folder in a collection.
import { testerFolderEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { createFolder } from "@/server/services/tester/folders";

export const POST = defineRoute(testerFolderEndpoints.create, ({ namespace, params, body }) => createFolder(namespace, params.id, body));
