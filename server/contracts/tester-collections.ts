// API tester collections, their folders and saved requests: the inputs the
// REST routes and tRPC procedures accept and the views they return.
// Browser-safe (the workspace's forms use them). Secret variables are masked
// with SECRET_MASK in every view; sending the mask back keeps the stored value.
import { z } from "zod";
import { NamespaceName, Paging, QueryBool, Timestamp } from "./common";
import { REQUEST_KINDS, RequestAuth, RequestDefinition, Scripts, Variable } from "./tester-request";

/** Limits of one collection (docs/decisions.md, "API tester: data"). */
export const MAX_COLLECTION_VARIABLES = 1000;
export const MAX_COLLECTION_FOLDERS = 1000;
export const MAX_COLLECTION_REQUESTS = 5000;
/** Ids one batch call may name. */
export const MAX_BATCH_IDS = 1000;

const Uuid = z.string().uuid({ message: "must be a UUID" });
export const ItemName = z.string().trim().min(1, "must not be empty").max(255, "at most 255 characters");
const Description = z.string().max(10_000, "at most 10000 characters");
const BodyNamespace = NamespaceName.optional().describe("names the namespace, like ?namespace=; must agree with it when both are given");

/** Keys are unique: a variable list is a map a user can read in order. */
export const CollectionVariables = z
  .array(Variable)
  .max(MAX_COLLECTION_VARIABLES, `at most ${MAX_COLLECTION_VARIABLES} variables`)
  .superRefine((vars, ctx) => {
    const seen = new Set<string>();
    vars.forEach((v, i) => {
      if (seen.has(v.key)) ctx.addIssue({ code: "custom", path: [i, "key"], message: `'${v.key}' is given twice` });
      seen.add(v.key);
    });
  })
  .describe(`secret values are stored encrypted and shown as the mask; a secret sent back as the mask keeps its stored value`);

export const Ids = z.array(Uuid).min(1, "at least one id").max(MAX_BATCH_IDS, `at most ${MAX_BATCH_IDS} ids`);

// ---- Collections ---------------------------------------------------------------

export const CreateCollectionInput = z
  .object({
    name: ItemName,
    description: Description.optional(),
    variables: CollectionVariables.optional(),
    auth: RequestAuth.optional().describe("applies to requests whose auth is inherit; inherit here means none"),
    scripts: Scripts.optional().describe("run around every request of the collection"),
    namespace: BodyNamespace,
  })
  .strict();
export type CreateCollectionInput = z.infer<typeof CreateCollectionInput>;

/** Only the fields given change. */
export const UpdateCollectionInput = CreateCollectionInput.partial().strict();
export type UpdateCollectionInput = z.infer<typeof UpdateCollectionInput>;

export const CollectionListQuery = Paging.extend({
  trashed: QueryBool.optional().describe("true: the trash instead of the active collections"),
  q: z.string().max(200).optional().describe("part of the name, any case"),
});

export const DeleteCollectionQuery = z.object({
  permanent: QueryBool.optional().describe("true: delete a collection that is already in the trash for good"),
});

export const CollectionIdsInput = z.object({ ids: Ids, namespace: BodyNamespace }).strict();

export const CollectionSummary = z.object({
  id: z.string().uuid(),
  namespace: z.string(),
  name: z.string(),
  description: z.string(),
  folderCount: z.number().int(),
  requestCount: z.number().int(),
  createdBy: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deletedAt: Timestamp.nullable().describe("set while the collection is in the trash"),
  sharedFrom: z
    .object({ namespace: z.string() })
    .optional()
    .describe("present when the collection belongs to another Space and is shared into this one: it can be viewed and copied here, not run"),
});
export type CollectionSummary = z.infer<typeof CollectionSummary>;

export const CollectionList = z.object({
  collections: z.array(CollectionSummary),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const FolderView = z.object({
  id: z.string().uuid(),
  collectionId: z.string().uuid(),
  parentId: z.string().uuid().nullable().describe("null: at the collection's root"),
  name: z.string(),
  description: z.string(),
  auth: RequestAuth,
  scripts: Scripts,
  sortIndex: z.number().int().describe("position among the folder's siblings, from 0"),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type FolderView = z.infer<typeof FolderView>;

/** What the tree shows of a request; the full request is GET /api-tester/requests/{id}. */
export const RequestSummary = z.object({
  id: z.string().uuid(),
  name: z.string(),
  method: z.string(),
  url: z.string(),
  kind: z.enum(REQUEST_KINDS),
  folderId: z.string().uuid().nullable(),
  sortIndex: z.number().int().describe("position among the requests of the same folder (or root), from 0"),
});
export type RequestSummary = z.infer<typeof RequestSummary>;

/** A collection with everything the workspace's tree needs, in one call. */
export const CollectionView = CollectionSummary.extend({
  variables: z.array(Variable),
  auth: RequestAuth,
  scripts: Scripts,
  folders: z.array(FolderView).describe("every folder, parents before children, siblings by sortIndex"),
  requests: z.array(RequestSummary).describe("every request, by folder then sortIndex"),
});
export type CollectionView = z.infer<typeof CollectionView>;

export const BatchDeleteResult = z.object({
  deleted: z.number().int(),
  ids: z.array(z.string().uuid()),
});

// ---- Folders ---------------------------------------------------------------------

export const CreateFolderInput = z
  .object({
    name: ItemName,
    description: Description.optional(),
    parentId: Uuid.nullable().optional().describe("a folder of the same collection; absent or null: the root"),
    auth: RequestAuth.optional().describe("default inherit"),
    scripts: Scripts.optional(),
    namespace: BodyNamespace,
  })
  .strict();
export type CreateFolderInput = z.infer<typeof CreateFolderInput>;

export const UpdateFolderInput = z
  .object({
    name: ItemName.optional(),
    description: Description.optional(),
    parentId: Uuid.nullable().optional().describe("move under this folder of the same collection (null: the root); not the folder itself or one inside it"),
    sortIndex: z.number().int().min(0).optional().describe("new position among its (new) siblings; absent: unchanged, or last when it moves"),
    auth: RequestAuth.optional(),
    scripts: Scripts.optional(),
    namespace: BodyNamespace,
  })
  .strict();
export type UpdateFolderInput = z.infer<typeof UpdateFolderInput>;

export const DeleteFolderResult = z.object({
  ok: z.literal(true),
  deletedFolders: z.number().int().describe("the folder and every folder inside it"),
  deletedRequests: z.number().int(),
});

// ---- Requests ----------------------------------------------------------------------

const D = RequestDefinition.shape;

export const CreateRequestInput = RequestDefinition.extend({
  name: ItemName,
  url: D.url.default(""),
  folderId: Uuid.nullable().optional().describe("a folder of the collection; absent or null: the root"),
  namespace: BodyNamespace,
}).strict();
export type CreateRequestInput = z.infer<typeof CreateRequestInput>;

/**
 * Only the fields given change: the definition's fields have no defaults
 * here (a default would overwrite what is stored); the merged request is
 * checked as a whole.
 */
export const UpdateRequestInput = z
  .object({
    name: ItemName.optional(),
    folderId: Uuid.nullable().optional().describe("move to this folder of the same collection (null: the root); it goes last there"),
    kind: D.kind.unwrap().optional(),
    method: D.method.unwrap().optional(),
    url: D.url.optional(),
    headers: D.headers.unwrap().optional(),
    params: D.params.unwrap().optional(),
    body: D.body.unwrap().optional(),
    auth: D.auth.unwrap().optional(),
    soap: D.soap,
    settings: D.settings.unwrap().optional(),
    scripts: D.scripts.unwrap().optional(),
    namespace: BodyNamespace,
  })
  .strict();
export type UpdateRequestInput = z.infer<typeof UpdateRequestInput>;

export const RequestView = RequestDefinition.extend({
  id: z.string().uuid(),
  collectionId: z.string().uuid(),
  folderId: z.string().uuid().nullable(),
  name: z.string(),
  sortIndex: z.number().int(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type RequestView = z.infer<typeof RequestView>;

export const RequestList = z.object({ requests: z.array(RequestView), count: z.number().int() });

export const ReorderRequestsInput = z
  .object({
    ids: Ids.describe("requests of one folder (or of the collection's root), in their new order; siblings not named keep their order after them"),
    namespace: BodyNamespace,
  })
  .strict();

export const ReorderResult = z.object({
  folderId: z.string().uuid().nullable(),
  requests: z.array(RequestSummary).describe("the folder's (or root's) requests in their new order"),
});

export const MoveRequestsInput = z
  .object({
    ids: Ids,
    collectionId: Uuid.describe("the target collection, in the same namespace"),
    folderId: Uuid.nullable().optional().describe("a folder of the target collection; absent or null: its root"),
    namespace: BodyNamespace,
  })
  .strict();

export const MoveRequestsResult = z.object({
  moved: z.number().int(),
  collectionId: z.string().uuid(),
  folderId: z.string().uuid().nullable(),
  requests: z.array(RequestSummary).describe("the moved requests where they are now, last in the target, in the order given"),
});
