// Organising and observing mocks: folders, tags, undefined requests (requests
// no mock answered), a mock's request log, and the preview that shows which
// mock would answer a request. Shapes and endpoints together, because each
// shape here serves exactly one of these endpoints.
import { z } from "zod";
import { IdParams, QueryBool, Timestamp } from "./common";
import { endpoint } from "./endpoint";
import { BodyNamespace } from "./namespaces";
import { HttpMethod, MockId, MockInput, MockResponse } from "./mock";
import { MOCK_BY_ID, MockIdParams, SaveResult } from "./mock-api";

const Uuid = z.string().uuid({ message: "must be a UUID" });
const Count = z.number().int();

// ---- Folders ------------------------------------------------------------------

export const FolderName = z.string().trim().min(1, "may not be empty").max(100, "at most 100 characters");

export const FolderView = z.object({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable().describe("null: a top-level folder"),
  position: Count.describe("order among its siblings, ascending"),
  mockCount: Count.describe("active mocks directly in this folder"),
  createdAt: Timestamp,
});
export const FolderList = z.object({ folders: z.array(FolderView), count: Count });

export const CreateFolderInput = z
  .object({ name: FolderName, parentId: Uuid.nullable().optional().describe("absent or null: top level"), namespace: BodyNamespace })
  .strict();
export const UpdateFolderInput = z
  .object({ name: FolderName.optional(), parentId: Uuid.nullable().optional().describe("null: move to the top level; absent: keep the parent"), namespace: BodyNamespace })
  .strict();
export const MoveFolderInput = z
  .object({
    parentId: Uuid.nullable().optional().describe("new parent; null: top level; absent: keep the parent (reorder only)"),
    position: z.number().int().min(0).max(1_000_000).describe("0-based place among the new siblings; past the end means last"),
    namespace: BodyNamespace,
  })
  .strict();
export const DeleteFolderResult = z.object({
  deleted: Count.describe("folders removed: this one and every folder below it"),
  movedMocks: Count.describe("mocks (including recycle-bin ones) moved out of the removed folders"),
  movedTo: z.string().nullable().describe("folder the mocks moved to (the deleted folder's parent); null: top level"),
});

// ---- Tags ---------------------------------------------------------------------

export const TagName = z
  .string()
  .min(1, "may not be empty")
  .max(100, "at most 100 characters")
  .regex(/^\S(?:.*\S)?$/s, "no leading or trailing spaces")
  .refine((s) => !s.includes(","), "may not contain ',' (the mock list filters by comma-separated tags)");
export const TagColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "a hex colour such as #1f8a70");

export const TagView = z.object({ name: z.string(), color: z.string().nullable(), mockCount: Count.describe("active mocks carrying the tag") });
export const TagList = z.object({ tags: z.array(TagView), count: Count });
// `tag` is what the public clients send for the name; `name` is the spec's.
export const CreateTagInput = z
  .object({ name: TagName.optional(), tag: TagName.optional().describe("alias of name"), color: TagColor.nullable().optional(), namespace: BodyNamespace })
  .strict()
  .superRefine((v, ctx) => {
    if (v.name === undefined && v.tag === undefined) ctx.addIssue({ code: "custom", path: ["name"], message: "required (or give it as tag)" });
    else if (v.name !== undefined && v.tag !== undefined && v.name !== v.tag) ctx.addIssue({ code: "custom", path: ["tag"], message: "differs from name; give one of them" });
  })
  .transform(({ tag, name, ...rest }) => ({ ...rest, name: (name ?? tag) as string }));

// ---- Undefined requests ---------------------------------------------------------

const JsonObject = z.record(z.string(), z.unknown());

export const UndefinedRequestView = z.object({
  id: z.string(),
  protocol: z.string(),
  method: z.string(),
  path: z.string(),
  query: JsonObject,
  headers: JsonObject,
  body: z.unknown().describe("the latest request's body; null when it had none; text past 64 KiB is cut with a marker"),
  count: Count.describe("how many times a request with this signature went unmatched"),
  firstSeenAt: Timestamp,
  lastSeenAt: Timestamp,
  ignored: z.boolean(),
});
export const UndefinedRequestList = z.object({ undefinedRequests: z.array(UndefinedRequestView), total: Count, limit: Count, offset: Count });
export const ListUndefinedRequestsQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  includeIgnored: QueryBool.optional().describe("default false"),
  search: z.string().max(200).optional().describe("case-insensitive text in the method or path"),
  namespace: z.string().optional(),
});
export const IgnoreUndefinedRequestInput = z.object({ ignored: z.boolean().default(true).describe("false un-ignores") }).strict();
export const DeleteUndefinedRequestsInput = z.object({ ids: z.array(Uuid).min(1).max(1000) }).strict();
export const DeletedCount = z.object({ deleted: Count });
export const CreateMockFromUndefinedInput = z
  .object({
    id: MockId.optional().describe("the new mock's id; generated when absent"),
    response: MockResponse.optional().describe("default: status 200 with an empty JSON object"),
    tags: MockInput.shape.tags,
  })
  .strict();

// ---- Request log --------------------------------------------------------------

export const MockLogQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100), namespace: z.string().optional() });
export const MockRequestLog = z.object({
  id: z.string(),
  requests: z.array(
    z.object({
      calledAt: Timestamp,
      req: z.object({ header: JsonObject, body: z.unknown(), queryParam: JsonObject, url: z.string() }),
    }),
  ),
});

// ---- Preview ------------------------------------------------------------------

const HeaderValues = z.union([z.string(), z.array(z.string())]);
export const PreviewHeaders = z.record(z.string().min(1).max(200), HeaderValues);
const PreviewPath = z.string().min(1).max(2000).describe("the path after /stubs/<namespace>, e.g. /users/42 (a ?query part is read too)");
const PreviewQueryString = z.string().max(8000).describe("query string, e.g. a=1&b=2");

/** A JSON text in a query parameter, parsed and checked with `schema`. */
function jsonText<T extends z.ZodType>(schema: T) {
  return z
    .string()
    .max(65_536)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be JSON" });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

export const PreviewQuery = z.object({
  method: HttpMethod.default("GET"),
  path: PreviewPath,
  headers: jsonText(PreviewHeaders).optional().describe('JSON object of header name to value or list, e.g. {"x-role":"admin"}'),
  query: PreviewQueryString.optional(),
  body: z.string().max(65_536).optional().describe("request body; parsed as JSON when it is JSON, else taken as text"),
  namespace: z.string().optional(),
});
export const PreviewInput = z
  .object({
    method: HttpMethod.default("GET"),
    path: PreviewPath,
    headers: PreviewHeaders.optional(),
    query: z.union([PreviewQueryString, z.record(z.string(), HeaderValues)]).optional(),
    body: z.unknown().optional().describe("the parsed request body (any JSON value; a string is a text body)"),
  })
  .strict();

export const NearMissView = z.object({
  id: z.string(),
  method: z.string(),
  route: z.string(),
  distance: z.number().describe("0: would have matched; 1: nothing in common"),
  reasons: z.array(z.object({ kind: z.enum(["route", "method", "condition", "expired"]), message: z.string(), detail: z.unknown().optional() })),
});
export const PreviewResult = z.object({
  matched: z.boolean(),
  mock: z.object({ id: z.string(), summary: z.string() }).optional(),
  pathParams: z.record(z.string(), z.string()).optional(),
  response: z.object({ status: Count, headers: z.record(z.string(), z.array(z.string())), body: z.unknown() }).optional(),
  responseError: z.string().optional().describe("the mock matched but its response cannot be formed (e.g. a missing template file); the stub answers 500 mock_error"),
  nearest: z.array(NearMissView).describe("when nothing matches: the nearest mocks and what kept each from answering"),
});

// ---- Endpoints ----------------------------------------------------------------

const FolderParams = IdParams;
const folders = "Mock folders";
const tags = "Tags";
const undefinedTag = "Undefined requests";
const mocksTag = "Mocks";

export const organisationEndpoints = {
  listFolders: endpoint({ method: "GET", path: "/api/v1/mock-folders", tag: folders, summary: "All folders of the namespace as a flat list (parentId, position); the client builds the tree", auth: "user", namespaced: true, permission: "read", response: FolderList }),
  createFolder: endpoint({ method: "POST", path: "/api/v1/mock-folders", tag: folders, summary: "Create a folder, last among its siblings; 409 when a sibling has the same name", auth: "user", namespaced: true, permission: "write", body: CreateFolderInput, response: FolderView, successStatus: 201 , statuses: { 409: "a sibling folder has the same name" } }),
  updateFolder: endpoint({ method: "PUT", path: "/api/v1/mock-folders/{id}", tag: folders, summary: "Rename and/or reparent a folder (a reparented folder goes last); 400 for a cycle, 409 for a sibling name clash", auth: "user", namespaced: true, permission: "write", params: FolderParams, body: UpdateFolderInput, response: FolderView , statuses: { 409: "a sibling folder has the same name" } }),
  deleteFolder: endpoint({ method: "DELETE", path: "/api/v1/mock-folders/{id}", tag: folders, summary: "Delete a folder and its subfolders; their mocks move to the deleted folder's parent (top level when none)", auth: "user", namespaced: true, permission: "delete", params: FolderParams, response: DeleteFolderResult }),
  moveFolder: endpoint({ method: "PATCH", path: "/api/v1/mock-folders/{id}/move", tag: folders, summary: "Reorder or reparent a folder; siblings are renumbered 0..n-1; 400 for a cycle", auth: "user", namespaced: true, permission: "write", params: FolderParams, body: MoveFolderInput, response: FolderView }),
  listTags: endpoint({ method: "GET", path: "/api/v1/tags", tag: tags, summary: "Created tags and tags used by active mocks, with the number of active mocks carrying each", auth: "user", namespaced: true, permission: "read", response: TagList }),
  createTag: endpoint({ method: "POST", path: "/api/v1/tags", tag: tags, summary: "Create a tag (optionally with a colour); 409 when it was already created", auth: "user", namespaced: true, permission: "write", body: CreateTagInput, response: TagView, successStatus: 201 , statuses: { 409: "the tag was already created" } }),
  listUndefined: endpoint({ method: "GET", path: "/api/v1/undefined-requests", tag: undefinedTag, summary: "Requests no mock answered, one row per signature (method, path, query keys), most recently seen first", auth: "user", namespaced: true, permission: "read", query: ListUndefinedRequestsQuery, response: UndefinedRequestList }),
  deleteUndefined: endpoint({ method: "DELETE", path: "/api/v1/undefined-requests", tag: undefinedTag, summary: "Delete the given undefined requests (ids of other namespaces are skipped)", auth: "user", namespaced: true, permission: "delete", body: DeleteUndefinedRequestsInput, response: DeletedCount }),
  deleteAllUndefined: endpoint({ method: "DELETE", path: "/api/v1/undefined-requests/all", tag: undefinedTag, summary: "Delete every undefined request of the namespace, ignored ones included", auth: "user", namespaced: true, permission: "delete", response: DeletedCount }),
  ignoreUndefined: endpoint({ method: "PATCH", path: "/api/v1/undefined-requests/{id}/ignore", tag: undefinedTag, summary: "Ignore one (body optional; {ignored:false} un-ignores); ignored rows keep counting but are hidden by default", auth: "user", namespaced: true, permission: "write", params: IdParams, body: IgnoreUndefinedRequestInput, response: UndefinedRequestView }),
  createMockFromUndefined: endpoint({ method: "POST", path: "/api/v1/undefined-requests/{id}/create-mock", tag: undefinedTag, summary: "Create a mock of its protocol for its method and path (HTTP; SSE: the path; WebSocket: path and event; MCP tool/prompt/resource; S3 bucket; 200 with {} unless a response is given), then delete the undefined request; 409 duplicate_entity when such a mock exists", auth: "user", namespaced: true, permission: "write", params: IdParams, body: CreateMockFromUndefinedInput, response: SaveResult, statuses: { 409: "duplicate_entity: such a mock exists" } }),
  mockLogs: endpoint({ method: "GET", path: "/api/v1/mocks/{id}/logs", tag: mocksTag, summary: "The mock's request log, newest first", auth: "user", ...MOCK_BY_ID, permission: "read", params: MockIdParams, query: MockLogQuery, response: MockRequestLog }),
  preview: endpoint({ method: "GET", path: "/api/v1/mocks/preview", tag: mocksTag, summary: "Which mock would answer a request, and its response, without calling the stub and without side effects (no use counted, no store written, no log)", auth: "user", namespaced: true, permission: "read", query: PreviewQuery, response: PreviewResult }),
  previewPost: endpoint({ method: "POST", path: "/api/v1/mocks/preview", tag: mocksTag, summary: "The preview with the request in a JSON body, for requests too big for a URL (extension)", auth: "user", namespaced: true, permission: "read", body: PreviewInput, response: PreviewResult }),
} as const;
