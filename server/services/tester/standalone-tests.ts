// Standalone tests: saved run configurations over collections (the
// collections in order, an environment, iterations, a data file, delay,
// bail — what Newman takes on its command line). Every member of the
// namespace who may read sees them; running one is a collection run through
// the same runner as execute-multiple, with referenceId = the test's id, so
// its runs list, export and report like any other.
import type { Actor } from "@/server/auth/actor";
import type { CreateTestInput, RunInlineTestInput, TestSelection, TestView, UpdateTestInput } from "@/server/contracts/tester-tests-schedules";
import { db, Prisma, type TesterTest } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { NamespaceScope } from "../namespace-access";
import { executeConfiguredRun, type Selection } from "./run-collections";
import { assertReferencesInNamespace } from "./run-references";

type LastRun = TestView["lastRun"];

function selections(stored: unknown): Selection[] {
  return Array.isArray(stored) ? (stored as Selection[]) : [];
}

function normalise(ids: TestSelection[]): Selection[] {
  return ids.map((s) => (typeof s === "string" ? { collectionId: s } : s));
}

/** The API's shape: a bare id when a selection takes the whole collection. */
function selectionView(s: Selection): TestSelection {
  return s.requestIds ? { collectionId: s.collectionId, requestIds: s.requestIds } : s.collectionId;
}

function view(row: TesterTest, scope: NamespaceScope, lastRun: LastRun): TestView {
  return {
    id: row.id,
    namespace: scope.name,
    name: row.name,
    description: row.description,
    collectionIds: selections(row.collections).map(selectionView),
    environmentId: row.environmentId,
    iterations: row.iterations,
    data: (row.data ?? null) as TestView["data"],
    delayMs: row.delayMs,
    bail: row.bail,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastRun,
  };
}

async function lastRuns(scope: NamespaceScope, ids: string[]): Promise<Map<string, LastRun>> {
  if (!ids.length) return new Map();
  const runs = await db().testRun.findMany({
    where: { namespaceId: scope.id, referenceId: { in: ids } },
    orderBy: [{ referenceId: "asc" }, { createdAt: "desc" }],
    distinct: ["referenceId"],
    select: { id: true, referenceId: true, status: true, createdAt: true, finishedAt: true },
  });
  return new Map(runs.map((r) => [r.referenceId!, { id: r.id, status: r.status as NonNullable<LastRun>["status"], createdAt: r.createdAt.toISOString(), finishedAt: r.finishedAt?.toISOString() ?? null }]));
}

function testNotFound(scope: NamespaceScope, id: string) {
  return new AppError("not_found", `Test '${id}' not found in namespace '${scope.name}'`);
}

async function find(scope: NamespaceScope, id: string): Promise<TesterTest> {
  const row = await db().testerTest.findFirst({ where: { id, namespaceId: scope.id } });
  if (!row) throw testNotFound(scope, id);
  return row;
}

const jsonNull = () => Prisma.DbNull;

export async function listTests(scope: NamespaceScope, query: { search?: string } = {}) {
  const search = query.search?.trim();
  const rows = await db().testerTest.findMany({
    where: { namespaceId: scope.id, ...(search ? { OR: [{ name: { contains: search, mode: "insensitive" } }, { description: { contains: search, mode: "insensitive" } }] } : {}) },
    orderBy: [{ name: "asc" }, { createdAt: "asc" }],
  });
  const last = await lastRuns(scope, rows.map((r) => r.id));
  return { tests: rows.map((r) => view(r, scope, last.get(r.id) ?? null)), total: rows.length };
}

export async function getTest(scope: NamespaceScope, id: string): Promise<TestView> {
  const row = await find(scope, id);
  return view(row, scope, (await lastRuns(scope, [id])).get(id) ?? null);
}

export async function createTest(actor: Actor, scope: NamespaceScope, input: CreateTestInput): Promise<TestView> {
  const chosen = normalise(input.collectionIds);
  await assertReferencesInNamespace(scope, chosen.map((s) => s.collectionId), input.environmentId);
  const row = await db().testerTest.create({
    data: {
      namespaceId: scope.id,
      name: input.name,
      description: input.description,
      collections: chosen as unknown as Prisma.InputJsonValue,
      environmentId: input.environmentId,
      iterations: input.iterations,
      data: input.data === null ? undefined : (input.data as Prisma.InputJsonValue),
      delayMs: input.delayMs,
      bail: input.bail,
      createdBy: actor.user.username,
    },
  });
  return view(row, scope, null);
}

export async function updateTest(scope: NamespaceScope, id: string, input: UpdateTestInput): Promise<TestView> {
  const row = await find(scope, id);
  const chosen = input.collectionIds ? normalise(input.collectionIds) : selections(row.collections);
  const environmentId = input.environmentId !== undefined ? input.environmentId : row.environmentId;
  if (input.collectionIds || input.environmentId !== undefined) await assertReferencesInNamespace(scope, chosen.map((s) => s.collectionId), environmentId);
  const { count } = await db().testerTest.updateMany({
    where: { id, namespaceId: scope.id },
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.collectionIds ? { collections: chosen as unknown as Prisma.InputJsonValue } : {}),
      ...(input.environmentId !== undefined ? { environmentId } : {}),
      ...(input.iterations !== undefined ? { iterations: input.iterations } : {}),
      ...(input.data !== undefined ? { data: input.data === null ? jsonNull() : (input.data as Prisma.InputJsonValue) } : {}),
      ...(input.delayMs !== undefined ? { delayMs: input.delayMs } : {}),
      ...(input.bail !== undefined ? { bail: input.bail } : {}),
    },
  });
  if (count === 0) throw testNotFound(scope, id);
  return getTest(scope, id);
}

export async function deleteTest(scope: NamespaceScope, id: string) {
  const { count } = await db().testerTest.deleteMany({ where: { id, namespaceId: scope.id } });
  if (count === 0) throw testNotFound(scope, id);
  return { ok: true as const };
}

function runInput(t: { name: string; environmentId: string | null; iterations: number | null; data: unknown; delayMs: number; bail: boolean }, useSSE: boolean) {
  return {
    name: t.name,
    // A saved test is reproducible: no environment means none, never the runner's active one.
    environmentId: t.environmentId ?? "",
    ...(t.iterations ? { iterations: t.iterations } : {}),
    ...(t.data !== null && t.data !== undefined ? { data: t.data as string | Record<string, unknown>[] } : {}),
    delayMs: t.delayMs,
    bail: t.bail,
    useSSE,
    persistVariables: false,
  };
}

export async function runTest(actor: Actor, scope: NamespaceScope, id: string, opts: { useSSE: boolean }) {
  const row = await find(scope, id);
  return executeConfiguredRun(actor, scope, selections(row.collections), runInput(row, opts.useSSE), { referenceId: row.id, trigger: "test" });
}

export function runInlineTest(actor: Actor, scope: NamespaceScope, input: RunInlineTestInput) {
  return executeConfiguredRun(actor, scope, normalise(input.collectionIds), runInput(input, input.useSSE), { trigger: "test" });
}
