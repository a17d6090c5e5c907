// Shapes of the mock-management API around the Mock contract.
import { z } from "zod";
import { MockId, MockInput, PROTOCOLS } from "./mock";
import { QueryBool } from "./common";

export const SaveIntent = z.enum(["overwrite", "create_new"]);

export const SaveMockQuery = z.object({ namespace: z.string().optional(), intent: SaveIntent.optional() });

export const MockRecord = z.object({ id: z.string(), namespace: z.string(), createdAt: z.number().int(), useCounter: z.number().int() });

export const SaveResult = z.object({ overwritten: z.boolean(), mock: MockRecord });
export type SaveResult = z.infer<typeof SaveResult>;

/** A stored mock as the API returns it: the definition plus bookkeeping. */
export const StoredMock = MockInput.safeExtend({
  id: z.string(),
  namespace: z.string(),
  createdAt: z.number().int().describe("milliseconds since the epoch"),
  updatedAt: z.number().int(),
  useCounter: z.number().int(),
  version: z.number().int(),
  deleted: z.boolean(),
  deletedAt: z.number().int().nullable(),
  closedAt: z.number().int().optional().describe("milliseconds since the epoch; only on a mock in the recycle bin (same instant as deletedAt)"),
  protocol: z.enum(PROTOCOLS),
});
export type StoredMock = z.infer<typeof StoredMock>;

export const DuplicateConflict = z.object({
  error: z.string(),
  code: z.literal("duplicate_entity"),
  request_id: z.string(),
  matchLevel: z.enum(["strict", "similar"]),
  existing: z.object({ id: z.string(), summary: z.string() }),
});

export const ListMocksQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  namespace: z.string().optional(),
  tags: z.string().max(2000).optional().describe("comma-separated; a mock must carry all"),
  search: z.string().max(200).optional().describe("matches mock ids, tags and routes"),
  folderId: z.union([z.literal("root"), z.string().uuid()]).optional(),
  protocol: z.enum(PROTOCOLS).optional(),
  onlyActive: QueryBool.optional(),
});
export const MockList = z.object({ mocks: z.array(StoredMock), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });

export const MockIdParams = z.object({ id: MockId });
/** Id-only mock routes: the id is looked up across the caller's namespaces unless the request names one (server/services/mock-location.ts). */
export const MOCK_BY_ID = {
  namespaced: "when-named",
  namespaceFallback: "when absent, the mock is looked up in every namespace the caller can read (409 when the id is in several)",
  statuses: { 409: "conflict: no namespace named and the id is in several of the caller's namespaces (`namespaces` lists them)" },
} as const;
export const AMBIGUOUS_ID = MOCK_BY_ID.statuses[409];
export const VersionParams = MockIdParams.extend({ version: z.coerce.number().int().min(1) });
export const MockVersionView = z.object({ version: z.number().int(), createdAt: z.number().int(), createdBy: z.string().nullable(), change: z.string(), definition: z.unknown() });
export const MockVersionList = z.object({ versions: z.array(MockVersionView.omit({ definition: true })), count: z.number().int() });

// ---- Mock management: list filters, patch, batches, chains, versions, copy ----

/** Most mocks one batch request may name or carry (docs/decisions.md, "Mock management API"). */
export const MAX_BATCH = 10_000;

// `deleted` is an addition to the spec's filters: the recycle bin needs a list of its own.
export const ListMocksFilters = ListMocksQuery.extend({
  onlyActive: QueryBool.optional().describe("default true: exclude the recycle bin; false: active and deleted mocks"),
  deleted: QueryBool.optional().describe("true: only mocks in the recycle bin"),
});
export type ListMocksFilters = z.infer<typeof ListMocksFilters>;

/** Fields of a stored mock that the server keeps; a PATCH may carry them back and they are ignored. */
export const READ_ONLY_MOCK_FIELDS = ["createdAt", "updatedAt", "useCounter", "version", "deleted", "deletedAt", "closedAt", "protocol"] as const;

// Values stay loose here on purpose: a patch is partial at every depth (`{http: {httpMethod: "POST"}}`),
// so it is the merged mock that is validated against MockInput, and its errors name the same fields.
export const MockPatch = z
  .object({
    ...Object.fromEntries(Object.keys(MockInput.shape).map((k) => [k, z.unknown().optional().describe(`as Mock.${k}; null removes it`)])),
    ...Object.fromEntries(READ_ONLY_MOCK_FIELDS.map((k) => [k, z.unknown().optional().describe("read-only; ignored")])),
  })
  .strict()
  .describe("Fields to change. Objects (protocol blocks, response, proxy, …) merge into the stored ones, arrays and response.payload replace, null removes a field; the merged mock must be a valid Mock.");
export type MockPatch = z.infer<typeof MockPatch>;

export const MockBatch = z.array(MockInput).max(MAX_BATCH).describe(`at most ${MAX_BATCH} mocks`);
export const BatchSaveResult = z.object({ created: z.number().int(), overwritten: z.number().int(), mocks: z.array(MockRecord).describe("in the order of the request") });
export type BatchSaveResult = z.infer<typeof BatchSaveResult>;

const MockTag = MockInput.shape.tags.unwrap().element;
export const MockIds = z.object({ ids: z.array(MockId).min(1).max(MAX_BATCH) }).strict();
export const BatchTagsInput = z
  .object({
    ids: MockIds.shape.ids,
    addTags: z.array(MockTag).max(50).default([]),
    removeTags: z.array(MockTag).max(50).default([]).describe("applied before addTags"),
  })
  .strict()
  .refine((v) => v.addTags.length + v.removeTags.length > 0, { message: "give addTags or removeTags", path: ["addTags"] });
export const BatchMoveInput = z.object({ ids: MockIds.shape.ids, folderId: z.string().uuid().nullable().describe("null: the root") }).strict();

const NotFoundIds = z.array(z.string()).describe("ids that matched no mock the operation applies to");
export const BatchDeleteResult = z.object({ deleted: z.number().int(), notFound: NotFoundIds });
export const BatchRestoreResult = z.object({ restored: z.number().int(), notFound: NotFoundIds });
export const BatchTagsResult = z.object({ updated: z.number().int(), notFound: NotFoundIds });
export const BatchMoveResult = z.object({ moved: z.number().int(), notFound: NotFoundIds });

export const PurgeResult = z.object({ id: z.string(), purged: z.literal(true) });

export const ChainParams = z.object({ id: z.string().min(1).max(200) });
export const ChainMocks = z.object({ mocks: z.array(StoredMock), count: z.number().int() });
export const ChainDeleteResult = z.object({ deleted: z.number().int().describe("mocks moved to the recycle bin"), clearedStoreKeys: z.number().int() });

export const CopyToNamespaceInput = z
  .object({ sourceNamespace: z.string().min(1).max(63), targetNamespace: z.string().min(1).max(63), mockIds: z.array(MockId).min(1).max(MAX_BATCH) })
  .strict();
export const CopyToNamespaceResult = z.object({
  copied: z.array(z.object({ sourceId: z.string(), id: z.string().describe("the source id when it was free in the target, else a new one") })),
  count: z.number().int(),
});
