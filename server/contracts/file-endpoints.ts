// Template files (read by mocks through valueFromFile and file templates) and
// temporary files (private uploads that expire, e.g. for imports). Uploads are
// not JSON: the request body is the file, or multipart/form-data with a part
// named `file` (docs/decisions.md, Stores and files), so the upload endpoints
// declare no JSON body and their handlers read the request themselves.
import { z } from "zod";
import { OkResponse, Timestamp } from "./common";
import { endpoint } from "./endpoint";

export const TEMPLATE_MAX_BYTES = 1024 * 1024;
export const TEMP_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** Spec, Limits: temporary file lifetime. */
export const TEMP_FILE_LIFETIME_MS = 30 * 60 * 1000;
export const TEMP_FILE_NAME_HEADER = "x-file-name";
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";

/** Template files are looked up by name from mocks, so the name is a plain, portable file name. */
export const TemplateFileName = z
  .string()
  .min(1, "must not be empty")
  .max(200, "at most 200 characters")
  .regex(/^[A-Za-z0-9._-]+$/, "letters, digits, '.', '_' and '-' only")
  .refine((n) => !n.includes(".."), "must not contain '..'")
  .refine((n) => n !== ".", "must not be '.'");

/** A temporary file's name is only shown and sent back on download; any printable text without path separators. */
export const TempFileName = z
  .string()
  .min(1, "must not be empty")
  .max(255, "at most 255 characters")
  .refine((n) => !/[\p{Cc}/\\]/u.test(n), "no control characters, '/' or '\\'");

export const IdempotencyKey = z
  .string()
  .min(1, "must not be empty")
  .max(200, "at most 200 characters")
  .regex(/^[\x21-\x7e]+$/, "visible ASCII characters only");

export const TemplateView = z.object({
  fileName: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  updatedAt: Timestamp,
});
export type TemplateView = z.infer<typeof TemplateView>;

export const TemplateList = z.object({ templates: z.array(TemplateView), count: z.number().int() });
export type TemplateList = z.infer<typeof TemplateList>;

export const SavedTemplate = TemplateView.extend({ created: z.boolean().describe("false when an existing file was replaced") });
export type SavedTemplate = z.infer<typeof SavedTemplate>;

export const TemplateParams = z.object({ fileName: TemplateFileName });

export const TempFileView = z.object({
  id: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  expiresAt: Timestamp,
});
export type TempFileView = z.infer<typeof TempFileView>;

export const TempFileParams = z.object({ fileId: z.string().uuid({ message: "must be a UUID" }) });

const upload = "the request body is the file (any Content-Type), or multipart/form-data with the file in part `file` (and optionally the namespace in part `namespace`)";
/** Uploads may name the namespace in a multipart part, read after the body (server/http/body-namespace.ts). */
const UPLOAD_NAMESPACE = { namespaced: "when-named", namespaceFallback: "or a multipart part `namespace`; default sandbox" } as const;

const templates = "Templates";
export const templateEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/templates", tag: templates, summary: "List the namespace's template files", auth: "user", namespaced: true, permission: "read", response: TemplateList }),
  download: endpoint({ method: "GET", path: "/api/v1/templates/{fileName}", tag: templates, summary: "Download a template file with its content type", auth: "user", namespaced: true, permission: "read", params: TemplateParams, produces: "*/*" }),
  upload: endpoint({ method: "POST", path: "/api/v1/templates/{fileName}", tag: templates, summary: `Create or replace a template file (201 created, 200 replaced): ${upload}; at most 1 MiB (413)`, auth: "user", ...UPLOAD_NAMESPACE, permission: "write", params: TemplateParams, response: SavedTemplate, successStatus: 201, statuses: { 200: "an existing file was replaced", 413: "the file is larger than 1 MiB" } }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/templates/{fileName}", tag: templates, summary: "Delete a template file (404 when absent)", auth: "user", namespaced: true, permission: "delete", params: TemplateParams, response: OkResponse }),
} as const;

const tempFiles = "Temporary files";
export const tempFileEndpoints = {
  upload: endpoint({
    method: "POST",
    path: "/api/v1/temp-files",
    tag: tempFiles,
    summary: `Upload a temporary file, private to the caller's identity and namespace, deleted after 30 minutes: ${upload}; header X-File-Name names a raw upload (percent-encoded UTF-8 allowed); optional Idempotency-Key returns the same file for a repeated upload; at most 10 MiB (413); 429 temp_store_full when the store is full; 503 when it is unavailable`,
    auth: "user",
    ...UPLOAD_NAMESPACE,
    permission: "write",
    response: TempFileView,
    successStatus: 201,
    statuses: { 409: "idempotency_key_conflict: the key was used for a different upload", 413: "the file is larger than 10 MiB", 429: "rate limited, or temp_store_full", 503: "the temporary file store is unavailable" },
  }),
  download: endpoint({ method: "GET", path: "/api/v1/temp-files/{fileId}", tag: tempFiles, summary: "Download a temporary file (404 for another identity or namespace, or once expired)", auth: "user", namespaced: true, permission: "read", params: TempFileParams, produces: "*/*" }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/temp-files/{fileId}", tag: tempFiles, summary: "Delete a temporary file (same identity and namespace as the upload)", auth: "user", namespaced: true, permission: "delete", params: TempFileParams, response: OkResponse }),
} as const;
