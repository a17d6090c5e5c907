// Rows of the API tester as the contracts show them (server/contracts/tester-collections.ts),
// and the order of a collection's tree: parents before children, siblings by position.
import type { CollectionSummary, CollectionView, FolderView, RequestSummary, RequestView } from "@/server/contracts/tester-collections";
import { RequestAuth, RequestDefinition, Scripts } from "@/server/contracts/tester-request";
import type { TesterCollection, TesterFolder, TesterRequest } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { NamespaceScope } from "../namespace-access";
import { maskVariables, storedVariables } from "./secrets";
import type { Tx } from "./access";

/** The schema version of TesterRequest.definition this code writes. */
export const REQUEST_SCHEMA_VERSION = 1;

export function authOf(json: unknown, fallback: "none" | "inherit"): RequestAuth {
  const parsed = RequestAuth.safeParse(json ?? {});
  return parsed.success ? parsed.data : { type: fallback };
}

export function scriptsOf(json: unknown): Scripts {
  const parsed = Scripts.safeParse(json ?? {});
  return parsed.success ? parsed.data : {};
}

/** A stored definition read through the contract (a row written by an older version gets its defaults). */
export function definitionOf(row: Pick<TesterRequest, "id" | "definition">): RequestDefinition {
  const parsed = RequestDefinition.safeParse(row.definition);
  if (!parsed.success) throw new AppError("conflict", `Stored request '${row.id}' no longer fits the request contract`);
  return parsed.data;
}

export function summaryView(row: TesterCollection, scope: NamespaceScope, counts: { folders: number; requests: number }): CollectionSummary {
  return {
    id: row.id,
    namespace: scope.name,
    name: row.name,
    description: row.description,
    folderCount: counts.folders,
    requestCount: counts.requests,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
}

export function folderView(row: TesterFolder): FolderView {
  return {
    id: row.id,
    collectionId: row.collectionId,
    parentId: row.parentId,
    name: row.name,
    description: row.description,
    auth: authOf(row.auth, "inherit"),
    scripts: scriptsOf(row.scripts),
    sortIndex: row.sortIndex,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type SummaryRow = Pick<TesterRequest, "id" | "name" | "method" | "url" | "kind" | "folderId" | "sortIndex">;

export function requestSummary(row: SummaryRow): RequestSummary {
  return { id: row.id, name: row.name, method: row.method, url: row.url, kind: row.kind as RequestSummary["kind"], folderId: row.folderId, sortIndex: row.sortIndex };
}

export function requestView(row: TesterRequest): RequestView {
  return {
    ...definitionOf(row),
    id: row.id,
    collectionId: row.collectionId,
    folderId: row.folderId,
    name: row.name,
    sortIndex: row.sortIndex,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const bySort = <T extends { sortIndex: number; createdAt: Date; id: string }>(a: T, b: T) =>
  a.sortIndex - b.sortIndex || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);

/** Folders depth-first: each parent before its children, siblings by position. */
export function treeOrder<F extends Pick<TesterFolder, "id" | "parentId" | "sortIndex" | "createdAt">>(folders: F[]): F[] {
  const children = new Map<string | null, F[]>();
  for (const f of folders) children.set(f.parentId, [...(children.get(f.parentId) ?? []), f]);
  const out: F[] = [];
  const seen = new Set<string>();
  const walk = (parentId: string | null) => {
    for (const f of (children.get(parentId) ?? []).sort(bySort)) {
      if (seen.has(f.id)) continue; // a loop in the data cannot spin
      seen.add(f.id);
      out.push(f);
      walk(f.id);
    }
  };
  walk(null);
  return out;
}

/** Requests in tree order: the root's first, then each folder's in folder order. */
export function requestOrder<R extends Pick<TesterRequest, "id" | "folderId" | "sortIndex" | "createdAt">>(requests: R[], orderedFolders: { id: string }[]): R[] {
  const rank = new Map<string | null, number>([[null, -1], ...orderedFolders.map((f, i) => [f.id, i] as const)]);
  return [...requests].sort((a, b) => (rank.get(a.folderId) ?? 1e9) - (rank.get(b.folderId) ?? 1e9) || bySort(a, b));
}

/** The whole collection as the workspace's tree needs it. */
export async function collectionView(tx: Tx, scope: NamespaceScope, row: TesterCollection): Promise<CollectionView> {
  // One after the other: queries of one transaction share its connection.
  const folders = await tx.testerFolder.findMany({ where: { collectionId: row.id } });
  const requests = await tx.testerRequest.findMany({ where: { collectionId: row.id }, select: { id: true, name: true, method: true, url: true, kind: true, folderId: true, sortIndex: true, createdAt: true } });
  const ordered = treeOrder(folders);
  return {
    ...summaryView(row, scope, { folders: folders.length, requests: requests.length }),
    variables: maskVariables(storedVariables(row.variables)),
    auth: authOf(row.auth, "none"),
    scripts: scriptsOf(row.scripts),
    folders: ordered.map(folderView),
    requests: requestOrder(requests, ordered).map(requestSummary),
  };
}
