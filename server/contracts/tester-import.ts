// What every API tester import answers (POST /api/v1/api-tester/import/<format>):
// each importer converts its document into the native collection document
// (tester-native-format.ts) and one service saves it, so all formats share
// this response and the `preview` query. The native import's 207 partial
// failure adds `summary.failedCount` and `failures`; converters add
// `warnings` for parts of their format the tester cannot keep.
import { z } from "zod";
import { QueryBool } from "./common";

/** How many failures a response lists; `summary.failedCount` has the full count. */
export const MAX_LISTED_FAILURES = 50;
/** How many warnings a response lists; `summary.warningCount` has the full count. */
export const MAX_LISTED_WARNINGS = 200;

export const ImportQuery = z.object({
  namespace: z.string().max(63).optional(),
  preview: QueryBool.optional().describe("true: convert and answer the would-be tree and counts, save nothing"),
  name: z.string().trim().min(1).max(255).optional().describe("the new collection's name instead of the document's"),
});
export type ImportQuery = z.infer<typeof ImportQuery>;

export const ImportFailure = z.object({
  path: z.string().describe("where in the document, e.g. items[2].items[0]"),
  name: z.string().describe("the item's name when it has one"),
  type: z.enum(["folder", "request", "variable", "document"]).optional(),
  reason: z.string(),
});
export type ImportFailure = z.infer<typeof ImportFailure>;

export const ImportWarning = z.object({
  path: z.string().describe("where in the source document"),
  message: z.string(),
});
export type ImportWarning = z.infer<typeof ImportWarning>;

export type ImportPreviewNode =
  | { type: "folder"; name: string; items: ImportPreviewNode[] }
  | { type: "request"; name: string; method: string; url: string; kind: string };
export const ImportPreviewNode: z.ZodType<ImportPreviewNode> = z
  .union([
    z.object({ type: z.literal("folder"), name: z.string(), get items() { return z.array(ImportPreviewNode); } }),
    z.object({ type: z.literal("request"), name: z.string(), method: z.string(), url: z.string(), kind: z.string() }),
  ])
  .meta({ id: "ImportPreviewNode" });

export const ImportSummary = z.object({
  importedFolders: z.number().int(),
  importedRequests: z.number().int().describe("requests only"),
  failedCount: z.number().int().describe("every failure; `failures` lists at most 50"),
  warningCount: z.number().int(),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

export const ImportResult = z.object({
  collectionId: z.string().uuid().nullable().describe("null in a preview"),
  name: z.string(),
  source: z.string().describe("the format imported: postman, mockarty, openapi…"),
  imported: z.object({ folders: z.number().int(), requests: z.number().int(), variables: z.number().int() }),
  requestsCount: z.number().int().describe("saved rows, folders included"),
  summary: ImportSummary,
  failures: z.array(ImportFailure).describe("at most 50"),
  warnings: z.array(ImportWarning).describe("parts of the source the tester cannot keep; at most 200"),
  preview: z.boolean().describe("true: nothing was saved"),
  tree: z.array(ImportPreviewNode).optional().describe("a preview's would-be tree"),
});
export type ImportResult = z.infer<typeof ImportResult>;

/** The environment a Postman environment import creates. */
export const EnvironmentImportResult = z.object({
  environmentId: z.string().uuid().nullable().describe("null in a preview"),
  name: z.string(),
  source: z.literal("postman-env"),
  imported: z.object({ variables: z.number().int(), secrets: z.number().int() }),
  variables: z.array(z.object({ key: z.string(), secret: z.boolean(), enabled: z.boolean() })),
  warnings: z.array(ImportWarning),
  preview: z.boolean(),
});
export type EnvironmentImportResult = z.infer<typeof EnvironmentImportResult>;
