// A collection as a native collection document (polymock-collection v1), as a download.
import { testerCollectionEndpoints } from "@/server/contracts/api-tester";
import { contentDisposition } from "@/server/http/file-transfer";
import { defineRoute, Reply } from "@/server/http/define-route";
import { exportCollection } from "@/server/services/tester/collection-tree";

export const GET = defineRoute(testerCollectionEndpoints.export, async ({ namespace, params }) => {
  const { document, fileName } = await exportCollection(namespace, params.id);
  return new Reply(document, { headers: { "Content-Disposition": contentDisposition("attachment", fileName) } });
});
