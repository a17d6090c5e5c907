import { tempFileEndpoints } from "@/server/contracts/file-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { fileResponse } from "@/server/http/file-transfer";
import { deleteTempFile, readTempFile } from "@/server/services/temp-files";

export const GET = defineRoute(tempFileEndpoints.download, async ({ actor, namespace, params }) => fileResponse(await readTempFile(actor, namespace, params.fileId), "attachment"));

export const DELETE = defineRoute(tempFileEndpoints.remove, ({ actor, namespace, params }) => deleteTempFile(actor, namespace, params.fileId));
