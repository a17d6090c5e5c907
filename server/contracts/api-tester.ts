// The API tester's data endpoints (spec 02-modules, "API tester: collections"
// and "requests, environments, runs"): collections with their folders and
// saved requests, environments, the execution history and stored test runs.
// Every one works inside a namespace (404 for one the caller cannot read).
// Executing requests and collections, cancelling and exporting runs live in
// their own contracts.
import { z } from "zod";
import { IdParams, NamespaceName, OkResponse, Paging } from "./common";
import { endpoint } from "./endpoint";
import {
  BatchDeleteResult,
  CollectionIdsInput,
  CollectionList,
  CollectionListQuery,
  CollectionSummary,
  CollectionView,
  CreateCollectionInput,
  CreateFolderInput,
  CreateRequestInput,
  DeleteCollectionQuery,
  DeleteFolderResult,
  FolderView,
  Ids,
  MoveRequestsInput,
  MoveRequestsResult,
  ReorderRequestsInput,
  ReorderResult,
  RequestList,
  RequestView,
  UpdateCollectionInput,
  UpdateFolderInput,
  UpdateRequestInput,
} from "./tester-collections";
import { ActiveEnvironment, CreateEnvironmentInput, EnvironmentList, EnvironmentView, UpdateEnvironmentInput } from "./tester-environments";
import { HistoryList, HistoryQuery } from "./tester-history";
import { NativeCollectionDocument } from "./tester-native-format";
import { RunMode, RunStatus, TestRunDetail, TestRunSummary } from "./tester-run";

export const RequestIdsInput = z.object({ ids: Ids, namespace: NamespaceName.optional().describe("names the namespace, like ?namespace=; must agree with it when both are given") }).strict();

export const TestRunListQuery = Paging.extend({
  mode: RunMode.optional(),
  referenceId: z.string().max(200).optional().describe("the load, fuzz, chaos or contract configuration the runs belong to"),
  status: RunStatus.optional(),
});

export const TestRunList = z.object({
  testRuns: z.array(TestRunSummary),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const ActiveTestRuns = z.object({ testRuns: z.array(TestRunSummary), count: z.number().int() });

const tag = "API tester";
const IN_TRASH = "the collection is in the trash (restore it first)";
const ns = { auth: "user", namespaced: true } as const;

export const testerCollectionEndpoints = {
  create: endpoint({ method: "POST", path: "/api/v1/api-tester/collections", tag, summary: "Create a collection (in sandbox when no namespace is named)", ...ns, permission: "write", body: CreateCollectionInput, response: CollectionView, successStatus: 201 }),
  list: endpoint({ method: "GET", path: "/api/v1/api-tester/collections", tag, summary: "List collections, recently changed first; ?trashed=true lists the trash", ...ns, permission: "read", query: CollectionListQuery, response: CollectionList }),
  get: endpoint({ method: "GET", path: "/api/v1/api-tester/collections/{id}", tag, summary: "One collection with its folder tree and request list (also from the trash)", ...ns, permission: "read", params: IdParams, response: CollectionView }),
  update: endpoint({ method: "PUT", path: "/api/v1/api-tester/collections/{id}", tag, summary: "Change the fields given; a secret variable sent as the mask keeps its value. Needs write in the namespace, or an editor user share of the collection", ...ns, permission: "read", params: IdParams, body: UpdateCollectionInput, response: CollectionView, statuses: { 409: IN_TRASH } }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/api-tester/collections/{id}", tag, summary: "Move a collection to the trash; with ?permanent=true delete one in the trash for good", ...ns, permission: "delete", params: IdParams, query: DeleteCollectionQuery, response: CollectionSummary, statuses: { 409: "permanent=true for a collection that is not in the trash" } }),
  restore: endpoint({ method: "POST", path: "/api/v1/api-tester/collections/{id}/restore", tag, summary: "Bring a collection back from the trash (an active one is returned unchanged)", ...ns, permission: "write", params: IdParams, response: CollectionSummary }),
  duplicate: endpoint({ method: "POST", path: "/api/v1/api-tester/collections/{id}/duplicate", tag, summary: "Copy a collection with its folders, requests, scripts and variables (secrets too) as '<name> (copy)'", ...ns, permission: "write", params: IdParams, response: CollectionView, successStatus: 201 }),
  batchDelete: endpoint({ method: "DELETE", path: "/api/v1/api-tester/collections/batch", tag, summary: "Move collections to the trash, all or none", ...ns, permission: "delete", body: CollectionIdsInput, response: BatchDeleteResult, statuses: { 404: "an id is not a collection of the namespace (details name it), or a namespace the caller cannot read" } }),
  export: endpoint({ method: "GET", path: "/api/v1/api-tester/collections/{id}/export", tag, summary: "The collection as a native collection document (format polymock-collection, version 1; secret values masked)", ...ns, permission: "read", params: IdParams, response: NativeCollectionDocument }),
} as const;

export const testerFolderEndpoints = {
  create: endpoint({ method: "POST", path: "/api/v1/api-tester/collections/{id}/folders", tag, summary: "Create a folder in a collection, at its root or inside another folder; it goes last", ...ns, permission: "write", params: IdParams, body: CreateFolderInput, response: FolderView, successStatus: 201, statuses: { 409: IN_TRASH } }),
  update: endpoint({ method: "PUT", path: "/api/v1/api-tester/folders/{id}", tag, summary: "Rename, move (not into itself or a folder inside it) or reorder a folder; change its auth and scripts", ...ns, permission: "write", params: IdParams, body: UpdateFolderInput, response: FolderView, statuses: { 409: IN_TRASH } }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/api-tester/folders/{id}", tag, summary: "Delete a folder with every folder and request inside it", ...ns, permission: "delete", params: IdParams, response: DeleteFolderResult, statuses: { 409: IN_TRASH } }),
} as const;

export const testerRequestEndpoints = {
  create: endpoint({ method: "POST", path: "/api/v1/api-tester/collections/{id}/requests", tag, summary: "Save a request in a collection (at its root or in a folder); it goes last", ...ns, permission: "write", params: IdParams, body: CreateRequestInput, response: RequestView, successStatus: 201, statuses: { 409: IN_TRASH } }),
  list: endpoint({ method: "GET", path: "/api/v1/api-tester/collections/{id}/requests", tag, summary: "Every request of a collection in full, by folder then position", ...ns, permission: "read", params: IdParams, response: RequestList }),
  reorder: endpoint({ method: "POST", path: "/api/v1/api-tester/collections/{id}/requests/reorder", tag, summary: "Put requests of one folder (or the root) in a new order", ...ns, permission: "write", params: IdParams, body: ReorderRequestsInput, response: ReorderResult, statuses: { 409: IN_TRASH } }),
  get: endpoint({ method: "GET", path: "/api/v1/api-tester/requests/{id}", tag, summary: "One saved request", ...ns, permission: "read", params: IdParams, response: RequestView }),
  update: endpoint({ method: "PUT", path: "/api/v1/api-tester/requests/{id}", tag, summary: "Change the fields given (the merged request must be valid); folderId moves it within its collection", ...ns, permission: "write", params: IdParams, body: UpdateRequestInput, response: RequestView, statuses: { 409: IN_TRASH } }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/api-tester/requests/{id}", tag, summary: "Delete a saved request", ...ns, permission: "delete", params: IdParams, response: OkResponse, statuses: { 409: IN_TRASH } }),
  batchDelete: endpoint({ method: "DELETE", path: "/api/v1/api-tester/requests/batch", tag, summary: "Delete saved requests, all or none", ...ns, permission: "delete", body: RequestIdsInput, response: BatchDeleteResult, statuses: { 404: "an id is not a request of the namespace (details name it), or a namespace the caller cannot read", 409: IN_TRASH } }),
  batchMove: endpoint({ method: "PATCH", path: "/api/v1/api-tester/requests/batch/move", tag, summary: "Move saved requests to a collection (and folder) of the same namespace, all or none", ...ns, permission: "write", body: MoveRequestsInput, response: MoveRequestsResult, statuses: { 404: "an id or the collection is not in the namespace (details name it), or a namespace the caller cannot read", 409: IN_TRASH } }),
  history: endpoint({ method: "GET", path: "/api/v1/api-tester/requests/history", tag, summary: "The caller's sent requests in the namespace, newest first (the newest 500 are kept)", ...ns, permission: "read", query: HistoryQuery, response: HistoryList }),
} as const;

export const testerEnvironmentEndpoints = {
  create: endpoint({ method: "POST", path: "/api/v1/api-tester/environments", tag, summary: "Create an environment: variables {name: value} and the names that are secret", ...ns, permission: "write", body: CreateEnvironmentInput, response: EnvironmentView, successStatus: 201 }),
  list: endpoint({ method: "GET", path: "/api/v1/api-tester/environments", tag, summary: "The namespace's environments by name, secret values masked", ...ns, permission: "read", response: EnvironmentList }),
  active: endpoint({ method: "GET", path: "/api/v1/api-tester/environments/active", tag, summary: "The caller's active environment in the namespace, or null", ...ns, permission: "read", response: ActiveEnvironment }),
  deactivate: endpoint({ method: "DELETE", path: "/api/v1/api-tester/environments/active", tag, summary: "Use no environment (the caller's choice in the namespace)", ...ns, permission: "read", response: ActiveEnvironment }),
  get: endpoint({ method: "GET", path: "/api/v1/api-tester/environments/{id}", tag, summary: "One environment, secret values masked", ...ns, permission: "read", params: IdParams, response: EnvironmentView }),
  update: endpoint({ method: "PUT", path: "/api/v1/api-tester/environments/{id}", tag, summary: "Change the fields given; a secret sent as the mask keeps its stored value", ...ns, permission: "write", params: IdParams, body: UpdateEnvironmentInput, response: EnvironmentView }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/api-tester/environments/{id}", tag, summary: "Delete an environment (it stops being anyone's active one)", ...ns, permission: "delete", params: IdParams, response: OkResponse }),
  activate: endpoint({ method: "POST", path: "/api/v1/api-tester/environments/{id}/activate", tag, summary: "Make an environment the caller's active one in the namespace", ...ns, permission: "read", params: IdParams, response: EnvironmentView }),
} as const;

export const testRunEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/api-tester/test-runs", tag, summary: "Test runs of the namespace, newest first", ...ns, permission: "read", query: TestRunListQuery, response: TestRunList }),
  get: endpoint({ method: "GET", path: "/api/v1/api-tester/test-runs/{id}", tag, summary: "One test run with every request's result", ...ns, permission: "read", params: IdParams, response: TestRunDetail }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/api-tester/test-runs/{id}", tag, summary: "Delete a finished test run and its results", ...ns, permission: "delete", params: IdParams, response: OkResponse, statuses: { 409: "the run is queued or running (cancel it first)" } }),
  active: endpoint({ method: "GET", path: "/api/v1/test-runs/active", tag, summary: "Queued and running runs of every mode in the namespace, oldest first", ...ns, permission: "read", response: ActiveTestRuns }),
  report: endpoint({ method: "GET", path: "/api/v1/api-tester/test-reports/{id}", tag, summary: "A test run's report: the run with every request's result (as test-runs/{id})", ...ns, permission: "read", params: IdParams, response: TestRunDetail }),
} as const;

/** Every endpoint of this file, for server/contracts/api.ts. */
export const apiTesterEndpoints = [testerCollectionEndpoints, testerFolderEndpoints, testerRequestEndpoints, testerEnvironmentEndpoints, testRunEndpoints].flatMap((group) => Object.values(group));
