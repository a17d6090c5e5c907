import { IDEMPOTENCY_KEY_HEADER, IdempotencyKey, TEMP_FILE_MAX_BYTES, TEMP_FILE_NAME_HEADER, TempFileName, tempFileEndpoints } from "@/server/contracts/file-endpoints";
import { uploadNamespace } from "@/server/http/body-namespace";
import { defineRoute, Reply } from "@/server/http/define-route";
import { parseField, readUpload } from "@/server/http/file-transfer";
import { uploadTempFile } from "@/server/services/temp-files";

export const POST = defineRoute(tempFileEndpoints.upload, async ({ req, actor, namespace }) => {
  const key = req.headers.get(IDEMPOTENCY_KEY_HEADER);
  const idempotencyKey = key === null ? undefined : parseField(IdempotencyKey, key, "header", IDEMPOTENCY_KEY_HEADER);
  const upload = await readUpload(req, { limitBytes: TEMP_FILE_MAX_BYTES, name: { header: TEMP_FILE_NAME_HEADER, schema: TempFileName } });
  const scope = await uploadNamespace(actor, req, namespace, upload.namespace, tempFileEndpoints.upload.permission);
  const { file, replayed } = await uploadTempFile(actor, scope, { ...upload, idempotencyKey });
  return new Reply(file, { status: 201, headers: replayed ? { "Idempotent-Replayed": "true" } : {} });
});
