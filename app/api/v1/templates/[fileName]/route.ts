import { TEMPLATE_MAX_BYTES, templateEndpoints } from "@/server/contracts/file-endpoints";
import { defineRoute, Reply } from "@/server/http/define-route";
import { fileResponse, readUpload } from "@/server/http/file-transfer";
import { deleteTemplate, readTemplate, saveTemplate } from "@/server/services/templates";

export const GET = defineRoute(templateEndpoints.download, async ({ namespace, params }) => fileResponse(await readTemplate(namespace, params.fileName), "inline"));

export const POST = defineRoute(templateEndpoints.upload, async ({ req, namespace, params }) => {
  const upload = await readUpload(req, { limitBytes: TEMPLATE_MAX_BYTES });
  const saved = await saveTemplate(namespace, params.fileName, upload);
  return new Reply(saved, { status: saved.created ? 201 : 200 });
});

export const DELETE = defineRoute(templateEndpoints.remove, ({ namespace, params }) => deleteTemplate(namespace, params.fileName));
