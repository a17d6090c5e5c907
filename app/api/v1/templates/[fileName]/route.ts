import { TEMPLATE_MAX_BYTES, templateEndpoints } from "@/server/contracts/file-endpoints";
import { uploadNamespace } from "@/server/http/body-namespace";
import { defineRoute, Reply } from "@/server/http/define-route";
import { fileResponse, readUpload } from "@/server/http/file-transfer";
import { deleteTemplate, readTemplate, saveTemplate } from "@/server/services/templates";

export const GET = defineRoute(templateEndpoints.download, async ({ namespace, params }) => fileResponse(await readTemplate(namespace, params.fileName), "inline"));

export const POST = defineRoute(templateEndpoints.upload, async ({ req, actor, namespace, params }) => {
  const upload = await readUpload(req, { limitBytes: TEMPLATE_MAX_BYTES });
  const scope = await uploadNamespace(actor, req, namespace, upload.namespace, templateEndpoints.upload.permission);
  const saved = await saveTemplate(scope, params.fileName, upload);
  return new Reply(saved, { status: saved.created ? 201 : 200 });
});

export const DELETE = defineRoute(templateEndpoints.remove, ({ namespace, params }) => deleteTemplate(namespace, params.fileName));
