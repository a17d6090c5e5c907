// Global (per namespace) and chain (per chain id) key-value stores. Writes go
// to PostgreSQL at once (a later request, on any process, may read them) and
// announce themselves on "stores_changed"; reads come from a per-process cache
// of each namespace's entries, so templates never wait for the database.
// The engine reaches them through server/serving/store-access.ts. They stay a
// service (the store API and mock management write them too): services never
// import server/serving.
import { db, Prisma } from "@/server/db/client";
import { listen, type Listener } from "@/server/db/notify";

export const STORES_CHANNEL = "stores_changed";
/** The chain id under which the global store is kept. */
export const GLOBAL = "";

export type NamespaceStores = Map<string, Map<string, unknown>>; // chainId ("" = global) → key → value

interface StoreState {
  cache: Map<string, Promise<NamespaceStores>>;
  /** The settled entries of `cache`, for readers that must not await. */
  ready: Map<string, NamespaceStores>;
  listener?: Listener;
}

const g = globalThis as unknown as { __polymockStores?: StoreState };
function state(): StoreState {
  g.__polymockStores ??= { cache: new Map(), ready: new Map() };
  return g.__polymockStores;
}

function ensureListening() {
  const s = state();
  if (s.listener || !process.env.DATABASE_URL) return;
  s.listener = listen(STORES_CHANNEL, (namespaceId) => forget(namespaceId), () => {
    s.cache.clear();
    s.ready.clear();
  });
}

function forget(namespaceId: string) {
  const s = state();
  s.cache.delete(namespaceId);
  s.ready.delete(namespaceId);
}

async function load(namespaceId: string): Promise<NamespaceStores> {
  const rows = await db().storeEntry.findMany({ where: { namespaceId }, select: { chainId: true, key: true, value: true } });
  const out: NamespaceStores = new Map();
  for (const r of rows) {
    let chain = out.get(r.chainId);
    if (!chain) out.set(r.chainId, (chain = new Map()));
    chain.set(r.key, r.value);
  }
  return out;
}

/** The loaded stores of a namespace, or undefined while they load (then await namespaceStores). */
export function namespaceStoresNow(namespaceId: string): NamespaceStores | undefined {
  return state().ready.get(namespaceId);
}

/** The cached stores of a namespace; loads them on first use. */
export function namespaceStores(namespaceId: string): Promise<NamespaceStores> {
  const s = state();
  ensureListening();
  let cached = s.cache.get(namespaceId);
  if (!cached) {
    const loading = load(namespaceId);
    cached = loading;
    s.cache.set(namespaceId, loading);
    loading.then(
      (stores) => {
        if (s.cache.get(namespaceId) === loading) s.ready.set(namespaceId, stores);
      },
      () => s.cache.delete(namespaceId),
    );
  }
  return cached;
}

async function announce(namespaceId: string) {
  await db().$executeRaw`SELECT pg_notify(${STORES_CHANNEL}, ${namespaceId})`;
}

export async function writeStore(namespaceId: string, chainId: string, key: string, value: unknown) {
  await db().storeEntry.upsert({
    where: { namespaceId_chainId_key: { namespaceId, chainId, key } },
    create: { namespaceId, chainId, key, value: (value ?? null) as Prisma.InputJsonValue },
    update: { value: (value ?? null) as Prisma.InputJsonValue },
  });
  const local = await namespaceStores(namespaceId);
  let chain = local.get(chainId);
  if (!chain) local.set(chainId, (chain = new Map()));
  chain.set(key, value ?? null);
  await announce(namespaceId);
}

export async function deleteStoreKey(namespaceId: string, chainId: string, key: string): Promise<boolean> {
  const { count } = await db().storeEntry.deleteMany({ where: { namespaceId, chainId, key } });
  (await namespaceStores(namespaceId)).get(chainId)?.delete(key);
  await announce(namespaceId);
  return count > 0;
}

export async function readStore(namespaceId: string, chainId: string): Promise<Record<string, unknown>> {
  const rows = await db().storeEntry.findMany({ where: { namespaceId, chainId }, orderBy: { key: "asc" }, select: { key: true, value: true } });
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}
