// Each process's in-memory mock index: one compiled RouteIndex per namespace,
// built from the database on first use and rebuilt when a "mocks_changed"
// notification names the namespace. Finding a mock never queries the database.
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { db } from "@/server/db/client";
import { listen, MOCKS_CHANNEL, type Listener } from "@/server/db/notify";
import { buildNamespace, type BuildResult } from "@/server/engine/engine";
import type { TemplateFiles } from "@/server/engine/types";
import { logger } from "@/server/lib/logger";

interface Entry {
  namespaceId: string;
  /** undefined once the namespace is deleted. */
  built: Promise<NamespaceIndex | undefined>;
  /** Bumped on every invalidation so a slow rebuild cannot overwrite a newer one. */
  generation: number;
  /** The built index once `built` has settled: the stub path reads it without awaiting. */
  ready?: NamespaceIndex;
}

function track(entry: Entry) {
  entry.built.then(
    (built) => {
      if (built) entry.ready = built;
    },
    () => {},
  );
}

interface IndexState {
  byName: Map<string, Entry>;
  nameById: Map<string, string>;
  listener?: Listener;
  generation: number;
}

const g = globalThis as unknown as { __polymockMockIndex?: IndexState };

function state(): IndexState {
  g.__polymockMockIndex ??= { byName: new Map(), nameById: new Map(), generation: 0 };
  return g.__polymockMockIndex;
}

export function parseStoredMock(row: { id: string; definition: unknown }, namespace: string): MockDefinition | null {
  const parsed = MockInput.safeParse(row.definition);
  if (!parsed.success) {
    logger().warn({ mockId: row.id, namespace, issues: parsed.error.issues.slice(0, 3) }, "stored mock does not parse; skipped");
    return null;
  }
  return { ...parsed.data, id: row.id, namespace };
}

export interface NamespaceIndex extends BuildResult {
  namespaceId: string;
  files: TemplateFiles;
}

// Template files travel with the index (a change to either sends the same
// notification), so rendering a template file never waits for the database.
async function load(namespaceId: string, name: string): Promise<NamespaceIndex | undefined> {
  const ns = await db().namespace.findUnique({ where: { id: namespaceId }, select: { deletedAt: true } });
  if (!ns || ns.deletedAt) return undefined;
  const [rows, fileRows] = await Promise.all([
    db().mock.findMany({
      where: { namespaceId, deletedAt: null },
      select: { id: true, definition: true, createdAt: true, updatedAt: true },
      orderBy: { updatedAt: "asc" },
    }),
    db().templateFile.findMany({ where: { namespaceId }, select: { fileName: true, content: true } }),
  ]);
  const texts = new Map(fileRows.map((f) => [f.fileName, Buffer.from(f.content).toString("utf8")]));
  const files: TemplateFiles = { read: (_ns, fileName) => texts.get(fileName) };
  const mocks = rows.flatMap((row, i) => {
    const mock = parseStoredMock(row, name);
    return mock ? [{ mock, sequence: i, createdAt: row.createdAt.getTime() }] : [];
  });
  const built = buildNamespace(name, mocks, files);
  if (built.rejected.length) logger().warn({ namespace: name, rejected: built.rejected }, "mocks that could not be compiled");
  return { ...built, namespaceId, files };
}

/** The namespace's index when it is built and current; undefined means: await namespaceMocks. */
export function namespaceMocksNow(name: string): NamespaceIndex | undefined {
  return state().byName.get(name)?.ready;
}

/** The compiled mocks of a namespace, or undefined when it does not exist. */
export async function namespaceMocks(name: string): Promise<NamespaceIndex | undefined> {
  const s = state();
  ensureListening();
  const cached = s.byName.get(name);
  if (cached) return cached.built;
  const ns = await db().namespace.findUnique({ where: { name }, select: { id: true, deletedAt: true } });
  if (!ns || ns.deletedAt) return undefined;
  const entry: Entry = { namespaceId: ns.id, built: load(ns.id, name), generation: ++s.generation };
  track(entry);
  s.byName.set(name, entry);
  s.nameById.set(ns.id, name);
  entry.built.catch(() => {
    if (s.byName.get(name) === entry) s.byName.delete(name);
  });
  return entry.built;
}

/**
 * Rebuilds a namespace's index at once (on NOTIFY), so the first request after
 * a change finds it ready or nearly so. Requests arriving meanwhile wait for
 * the new index rather than being answered by the old one.
 */
export function invalidateNamespace(namespaceId: string) {
  const s = state();
  const name = s.nameById.get(namespaceId);
  if (name === undefined || !s.byName.has(name)) return;
  const entry: Entry = { namespaceId, built: load(namespaceId, name), generation: ++s.generation };
  track(entry);
  s.byName.set(name, entry);
  entry.built.catch(() => {
    if (s.byName.get(name) === entry) s.byName.delete(name);
  });
}

export function invalidateAll() {
  state().byName.clear();
}

function ensureListening() {
  const s = state();
  if (s.listener || !process.env.DATABASE_URL) return;
  s.listener = listen(MOCKS_CHANNEL, (payload) => invalidateNamespace(payload), invalidateAll);
}

export async function stopListening() {
  const s = state();
  await s.listener?.close();
  s.listener = undefined;
}
