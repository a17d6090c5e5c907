// The API tester's data for the UI: collections with their folders and saved
// requests, environments, history and test runs; the same services as the
// REST routes under /api/v1/api-tester.
import { z } from "zod";
import { IdParams } from "@/server/contracts/common";
import { RequestIdsInput, TestRunListQuery } from "@/server/contracts/api-tester";
import {
  CollectionIdsInput,
  CollectionListQuery,
  CreateCollectionInput,
  CreateFolderInput,
  CreateRequestInput,
  MoveRequestsInput,
  ReorderRequestsInput,
  UpdateCollectionInput,
  UpdateFolderInput,
  UpdateRequestInput,
} from "@/server/contracts/tester-collections";
import { CreateEnvironmentInput, UpdateEnvironmentInput } from "@/server/contracts/tester-environments";
import { HistoryQuery } from "@/server/contracts/tester-history";
import { exportCollection } from "@/server/services/tester/collection-tree";
import {
  createCollection,
  deleteCollection,
  deleteCollections,
  duplicateCollection,
  getCollection,
  listCollections,
  restoreCollection,
  updateCollection,
} from "@/server/services/tester/collections";
import {
  activateEnvironment,
  createEnvironment,
  deactivateEnvironment,
  deleteEnvironment,
  getActiveEnvironment,
  getEnvironment,
  listEnvironments,
  updateEnvironment,
} from "@/server/services/tester/environments";
import { createFolder, deleteFolder, updateFolder } from "@/server/services/tester/folders";
import { listHistory } from "@/server/services/tester/history";
import { createRequest, deleteRequest, deleteRequests, getRequest, listRequests, moveRequests, reorderRequests, updateRequest } from "@/server/services/tester/requests";
import { deleteTestRun, getTestRun, listActiveRuns, listTestRuns } from "@/server/services/tester/test-runs";
import { ExecuteRequestInput, ExecuteWithScriptsInput } from "@/server/contracts/tester-execute-endpoints";
import { executeRequest, executeWithScripts } from "@/server/services/tester/execute";
import { cancelTestRun } from "@/server/services/tester/run-collections";
import { CreateScheduleInput, CreateTestInput, RunInlineTestInput, TestListQuery, UpdateScheduleInput, UpdateTestInput } from "@/server/contracts/tester-tests-schedules";
import { createSchedule, deleteSchedule, getSchedule, listSchedules, triggerSchedule, updateSchedule } from "@/server/services/tester/schedules";
import { createTest, deleteTest, getTest, listTests, runInlineTest, runTest, updateTest } from "@/server/services/tester/standalone-tests";
import type { TestRunDetail } from "@/server/contracts/tester-run";
import { nsDelete, nsRead, nsWrite } from "../namespaced";
import { apiTesterHelpersRouter } from "./api-tester-helpers";
import { createTRPCRouter } from "../trpc";
import { PeopleSearchQuery, SetShareRoleInput, ShareSpacesInput, ShareUsersInput } from "@/server/contracts/tester-sharing";
import { lookupPeople, searchPeople } from "@/server/services/people";
import { listSpaceShares, listUserShares, removeSpaceShare, removeUserShare, setUserShareRole, shareWithSpaces, shareWithUsers } from "@/server/services/tester/sharing";
import { apiTesterMocksRouter } from "./api-tester-mocks";
import { apiTesterImportsRouter } from "./api-tester-imports";
import { testerFormatImportsRouter } from "./tester-format-imports";

// Inputs are plain (not strict) objects: tRPC merges them with the namespace selector.
/** The UI sends a boolean where REST has a query-string flag. */
const CollectionListInput = CollectionListQuery.extend({ trashed: z.boolean().optional() });

const collectionsRouter = createTRPCRouter({
  list: nsRead.input(CollectionListInput).query(({ ctx, input }) => listCollections(ctx.scope, input)),
  get: nsRead.input(IdParams).query(({ ctx, input }) => getCollection(ctx.scope, input.id)),
  create: nsWrite.input(z.object({ collection: CreateCollectionInput })).mutation(({ ctx, input }) => createCollection(ctx.actor, ctx.scope, input.collection)),
  // nsRead: an editor user share lets a Space viewer change this one collection (the service checks).
  update: nsRead.input(IdParams.extend({ patch: UpdateCollectionInput })).mutation(({ ctx, input }) => updateCollection(ctx.scope, input.id, input.patch, ctx.actor)),
  remove: nsDelete.input(IdParams.extend({ permanent: z.boolean().optional() })).mutation(({ ctx, input }) => deleteCollection(ctx.scope, input.id, { permanent: input.permanent })),
  removeMany: nsDelete.input(z.object({ ids: CollectionIdsInput.shape.ids })).mutation(({ ctx, input }) => deleteCollections(ctx.scope, input.ids)),
  restore: nsWrite.input(IdParams).mutation(({ ctx, input }) => restoreCollection(ctx.scope, input.id)),
  duplicate: nsWrite.input(IdParams).mutation(({ ctx, input }) => duplicateCollection(ctx.actor, ctx.scope, input.id)),
  export: nsRead.input(IdParams).query(({ ctx, input }) => exportCollection(ctx.scope, input.id)),
});

const foldersRouter = createTRPCRouter({
  create: nsWrite.input(z.object({ collectionId: z.string().uuid(), folder: CreateFolderInput })).mutation(({ ctx, input }) => createFolder(ctx.scope, input.collectionId, input.folder)),
  update: nsWrite.input(IdParams.extend({ patch: UpdateFolderInput })).mutation(({ ctx, input }) => updateFolder(ctx.scope, input.id, input.patch)),
  remove: nsDelete.input(IdParams).mutation(({ ctx, input }) => deleteFolder(ctx.scope, input.id)),
});

const requestsRouter = createTRPCRouter({
  list: nsRead.input(z.object({ collectionId: z.string().uuid() })).query(({ ctx, input }) => listRequests(ctx.scope, input.collectionId)),
  get: nsRead.input(IdParams).query(({ ctx, input }) => getRequest(ctx.scope, input.id)),
  create: nsWrite.input(z.object({ collectionId: z.string().uuid(), request: CreateRequestInput })).mutation(({ ctx, input }) => createRequest(ctx.scope, input.collectionId, input.request)),
  update: nsWrite.input(IdParams.extend({ patch: UpdateRequestInput })).mutation(({ ctx, input }) => updateRequest(ctx.scope, input.id, input.patch)),
  remove: nsDelete.input(IdParams).mutation(({ ctx, input }) => deleteRequest(ctx.scope, input.id)),
  removeMany: nsDelete.input(z.object({ ids: RequestIdsInput.shape.ids })).mutation(({ ctx, input }) => deleteRequests(ctx.scope, input.ids)),
  reorder: nsWrite.input(z.object({ collectionId: z.string().uuid(), ids: ReorderRequestsInput.shape.ids })).mutation(({ ctx, input }) => reorderRequests(ctx.scope, input.collectionId, input.ids)),
  move: nsWrite.input(z.object(MoveRequestsInput.omit({ namespace: true }).shape)).mutation(({ ctx, input }) => moveRequests(ctx.scope, input)),
  history: nsRead.input(HistoryQuery).query(({ ctx, input }) => listHistory(ctx.actor, ctx.scope, input)),
});

const environmentsRouter = createTRPCRouter({
  list: nsRead.query(({ ctx }) => listEnvironments(ctx.actor, ctx.scope)),
  get: nsRead.input(IdParams).query(({ ctx, input }) => getEnvironment(ctx.actor, ctx.scope, input.id)),
  active: nsRead.query(({ ctx }) => getActiveEnvironment(ctx.actor, ctx.scope)),
  create: nsWrite.input(z.object({ environment: CreateEnvironmentInput })).mutation(({ ctx, input }) => createEnvironment(ctx.actor, ctx.scope, input.environment)),
  update: nsWrite.input(IdParams.extend({ patch: UpdateEnvironmentInput })).mutation(({ ctx, input }) => updateEnvironment(ctx.actor, ctx.scope, input.id, input.patch)),
  remove: nsDelete.input(IdParams).mutation(({ ctx, input }) => deleteEnvironment(ctx.scope, input.id)),
  // Choosing one's own active environment is not a write to the namespace: readers may.
  activate: nsRead.input(IdParams).mutation(({ ctx, input }) => activateEnvironment(ctx.actor, ctx.scope, input.id)),
  deactivate: nsRead.mutation(({ ctx }) => deactivateEnvironment(ctx.actor, ctx.scope)),
});

const testRunsRouter = createTRPCRouter({
  list: nsRead.input(TestRunListQuery).query(({ ctx, input }) => listTestRuns(ctx.scope, input)),
  get: nsRead.input(IdParams).query(({ ctx, input }) => getTestRun(ctx.scope, input.id)),
  active: nsRead.query(({ ctx }) => listActiveRuns(ctx.scope)),
  remove: nsDelete.input(IdParams).mutation(({ ctx, input }) => deleteTestRun(ctx.scope, input.id)),
  cancel: nsWrite.input(IdParams).mutation(({ ctx, input }) => cancelTestRun(ctx.scope, input.id)),
});

// Sending from the workspace. Collection runs stream progress, so the UI calls
// their REST endpoint with useSSE instead (same service).
const executionRouter = createTRPCRouter({
  send: nsWrite.input(z.object({ send: ExecuteWithScriptsInput })).mutation(({ ctx, input, signal }) => executeWithScripts(ctx.actor, ctx.scope, input.send, signal)),
  sendWithoutScripts: nsWrite.input(z.object({ send: ExecuteRequestInput })).mutation(({ ctx, input, signal }) => executeRequest(ctx.actor, ctx.scope, input.send, signal)),
});

// The Share dialog. Permissions are the service's (a Space viewer may share
// view rights), so every procedure resolves the namespace with read.
const sharingRouter = createTRPCRouter({
  users: nsRead.input(IdParams).query(({ ctx, input }) => listUserShares(ctx.actor, ctx.scope, input.id)),
  spaces: nsRead.input(IdParams).query(({ ctx, input }) => listSpaceShares(ctx.actor, ctx.scope, input.id)),
  shareUsers: nsRead.input(IdParams.extend({ share: ShareUsersInput })).mutation(({ ctx, input }) => shareWithUsers(ctx.actor, ctx.scope, input.id, input.share)),
  shareSpaces: nsRead.input(IdParams.extend({ share: ShareSpacesInput })).mutation(({ ctx, input }) => shareWithSpaces(ctx.actor, ctx.scope, input.id, input.share)),
  setRole: nsRead.input(IdParams.extend({ userId: z.string().uuid(), role: SetShareRoleInput.shape.role })).mutation(({ ctx, input }) => setUserShareRole(ctx.actor, ctx.scope, input.id, input.userId, input.role)),
  removeUser: nsRead.input(IdParams.extend({ userId: z.string().uuid() })).mutation(({ ctx, input }) => removeUserShare(ctx.actor, ctx.scope, input.id, input.userId)),
  removeSpace: nsRead.input(IdParams.extend({ space: z.string().min(1).max(63) })).mutation(({ ctx, input }) => removeSpaceShare(ctx.actor, ctx.scope, input.id, input.space)),
  // People of the namespace the UI names (it always names one).
  searchPeople: nsRead.input(PeopleSearchQuery).query(({ ctx, input }) => searchPeople(ctx.scope, input)),
  lookupPeople: nsRead.input(z.object({ userIds: z.array(z.string().max(100)).max(200) })).query(({ ctx, input }) => lookupPeople(ctx.scope, input.userIds)),
});

// Standalone tests and schedules. Their runs answer the finished run here (no
// stream); REST's useSSE is for clients that follow progress.
const testsRouter = createTRPCRouter({
  list: nsRead.input(TestListQuery).query(({ ctx, input }) => listTests(ctx.scope, input)),
  get: nsRead.input(IdParams).query(({ ctx, input }) => getTest(ctx.scope, input.id)),
  create: nsWrite.input(z.object({ test: CreateTestInput })).mutation(({ ctx, input }) => createTest(ctx.actor, ctx.scope, input.test)),
  update: nsWrite.input(IdParams.extend({ patch: UpdateTestInput })).mutation(({ ctx, input }) => updateTest(ctx.scope, input.id, input.patch)),
  remove: nsDelete.input(IdParams).mutation(({ ctx, input }) => deleteTest(ctx.scope, input.id)),
  run: nsWrite.input(IdParams).mutation(({ ctx, input }) => runTest(ctx.actor, ctx.scope, input.id, { useSSE: false }) as Promise<TestRunDetail>),
  runInline: nsWrite.input(z.object({ test: RunInlineTestInput.omit({ useSSE: true }) })).mutation(({ ctx, input }) => runInlineTest(ctx.actor, ctx.scope, { ...input.test, useSSE: false }) as Promise<TestRunDetail>),
});

const schedulesRouter = createTRPCRouter({
  list: nsRead.query(({ ctx }) => listSchedules(ctx.actor, ctx.scope)),
  get: nsRead.input(IdParams).query(({ ctx, input }) => getSchedule(ctx.actor, ctx.scope, input.id)),
  create: nsWrite.input(z.object({ schedule: CreateScheduleInput })).mutation(({ ctx, input }) => createSchedule(ctx.actor, ctx.scope, input.schedule)),
  update: nsWrite.input(IdParams.extend({ patch: UpdateScheduleInput })).mutation(({ ctx, input }) => updateSchedule(ctx.actor, ctx.scope, input.id, input.patch)),
  remove: nsDelete.input(IdParams).mutation(({ ctx, input }) => deleteSchedule(ctx.actor, ctx.scope, input.id)),
  trigger: nsWrite.input(IdParams).mutation(({ ctx, input }) => triggerSchedule(ctx.actor, ctx.scope, input.id, { useSSE: false }) as Promise<TestRunDetail>),
});

export const apiTesterRouter = createTRPCRouter({
  sharing: sharingRouter,
  collections: collectionsRouter,
  folders: foldersRouter,
  requests: requestsRouter,
  environments: environmentsRouter,
  testRuns: testRunsRouter,
  execution: executionRouter,
  mocks: apiTesterMocksRouter,
  imports: apiTesterImportsRouter,
  tests: testsRouter,
  schedules: schedulesRouter,
  helpers: apiTesterHelpersRouter,
  formatImports: testerFormatImportsRouter,
});
