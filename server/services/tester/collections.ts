// API tester collections of a namespace: create, list, read, change, the
// trash (delete moves there, restore brings back, permanent delete empties
// it), deep duplicate and batch delete. The tree inside a collection is
// folders.ts and requests.ts; the native export is collection-tree.ts.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Actor } from "@/server/auth/actor";
import type { CollectionListQuery, CollectionSummary, CollectionView, CreateCollectionInput, UpdateCollectionInput } from "@/server/contracts/tester-collections";
import { db, type Prisma } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import type { NamespaceScope } from "../namespace-access";
import { collectionForWrite, collectionNotFound, findCollection, lockCollections, transaction, type Tx } from "./access";
import { grantIsValid, reachCollection, userGrantRole } from "./collection-access";
import { sealVariables, storedVariables } from "./secrets";
import { collectionView, summaryView, treeOrder } from "./views";

const withCounts = { _count: { select: { folders: true, requests: true } } } as const;

async function summaryOf(tx: Tx, scope: NamespaceScope, id: string): Promise<CollectionSummary> {
  const row = await tx.testerCollection.findFirst({ where: { id, namespaceId: scope.id }, include: withCounts });
  if (!row) throw collectionNotFound(scope, id);
  return summaryView(row, scope, row._count);
}

export async function createCollection(actor: Actor, scope: NamespaceScope, input: CreateCollectionInput): Promise<CollectionView> {
  const row = await db().testerCollection.create({
    data: {
      namespaceId: scope.id,
      name: input.name,
      description: input.description ?? "",
      variables: sealVariables(input.variables ?? []) as Prisma.InputJsonValue,
      auth: (input.auth ?? { type: "none" }) as Prisma.InputJsonValue,
      scripts: (input.scripts ?? {}) as Prisma.InputJsonValue,
      createdBy: actor.user.username,
    },
  });
  return collectionView(db(), scope, row);
}

/**
 * Collections shared into this Space by a grant that still counts: their ids
 * and owner Spaces. Few per Space, so the granter check runs here in code.
 */
async function sharedIntoSpace(scope: NamespaceScope): Promise<Map<string, string>> {
  const grants = await db().testerCollectionSpaceGrant.findMany({
    where: { namespaceId: scope.id, collection: { deletedAt: null, namespace: { deletedAt: null } } },
    include: {
      collection: { select: { namespaceId: true, namespace: { select: { name: true } } } },
      grantedBy: { select: { disabledAt: true, role: true, memberships: { select: { namespaceId: true, id: true } } } },
    },
  });
  const valid = grants.filter((g) => grantIsValid({ ...g, grantedBy: { ...g.grantedBy, memberships: g.grantedBy.memberships.filter((m) => m.namespaceId === g.collection.namespaceId) } }));
  return new Map(valid.map((g) => [g.collectionId, g.collection.namespace.name]));
}

/** The Space's own collections and, outside the trash view, those shared into it (marked with sharedFrom). */
export async function listCollections(scope: NamespaceScope, query: z.output<typeof CollectionListQuery>) {
  const shared = query.trashed ? new Map<string, string>() : await sharedIntoSpace(scope);
  const where: Prisma.TesterCollectionWhereInput = {
    ...(shared.size ? { OR: [{ namespaceId: scope.id }, { id: { in: [...shared.keys()] } }] } : { namespaceId: scope.id }),
    deletedAt: query.trashed ? { not: null } : null,
    // Prisma passes LIKE's wildcards through: a '%' in the search means the character.
    ...(query.q ? { name: { contains: query.q.replace(/[\\%_]/g, "\\$&"), mode: "insensitive" } } : {}),
  };
  const [rows, total] = await db().$transaction([
    db().testerCollection.findMany({
      where,
      include: withCounts,
      orderBy: query.trashed ? [{ deletedAt: "desc" }, { id: "asc" }] : [{ updatedAt: "desc" }, { id: "asc" }],
      skip: query.offset,
      take: query.limit,
    }),
    db().testerCollection.count({ where }),
  ]);
  const view = (r: (typeof rows)[number]) => {
    const from = r.namespaceId === scope.id ? undefined : shared.get(r.id);
    if (!from) return summaryView(r, scope, r._count);
    return { ...summaryView(r, { ...scope, id: r.namespaceId, name: from }, r._count), sharedFrom: { namespace: from } };
  };
  return { collections: rows.map(view), total, limit: query.limit, offset: query.offset };
}

/** A collection with its tree; one in the trash too (so the trash can be looked into). */
export async function getCollection(scope: NamespaceScope, id: string): Promise<CollectionView> {
  const reach = await reachCollection(scope, id);
  const view = await collectionView(db(), reach.ownerScope, reach.collection);
  return reach.crossSpace ? { ...view, sharedFrom: { namespace: reach.ownerScope.name } } : view;
}

/**
 * Needs 'write' in the Space, or (with a credential that may write) an
 * editor user share of this collection: a Space viewer made editor of one
 * collection may change that collection's settings (docs/decisions.md).
 */
export async function updateCollection(scope: NamespaceScope, id: string, input: UpdateCollectionInput, actor?: Actor): Promise<CollectionView> {
  return transaction(async (tx) => {
    const current = await collectionForWrite(tx, scope, id);
    if (!scope.permissions.includes("write")) {
      const editor = actor && actor.permissions.includes("write") && (await userGrantRole(tx, actor, current)) === "editor";
      if (!editor) throw errors.forbidden(`This needs 'write' permission in namespace '${scope.name}' or an editor share of collection '${current.name}'`);
    }
    const row = await tx.testerCollection.update({
      where: { id },
      data: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.variables !== undefined ? { variables: sealVariables(input.variables, storedVariables(current.variables)) as Prisma.InputJsonValue } : {}),
        ...(input.auth !== undefined ? { auth: input.auth as Prisma.InputJsonValue } : {}),
        ...(input.scripts !== undefined ? { scripts: input.scripts as Prisma.InputJsonValue } : {}),
        updatedAt: new Date(),
      },
    });
    return collectionView(tx, scope, row);
  });
}

/** To the trash (an already trashed one is returned as it is); `permanent` deletes one that is in the trash. */
export async function deleteCollection(scope: NamespaceScope, id: string, opts: { permanent?: boolean } = {}): Promise<CollectionSummary> {
  return transaction(async (tx) => {
    await findCollection(tx, scope, id);
    await lockCollections(tx, [id]);
    const row = await findCollection(tx, scope, id);
    if (opts.permanent) {
      if (!row.deletedAt) {
        throw new AppError("conflict", `Collection '${row.name}' is not in the trash; delete it without permanent=true first`, { details: [{ location: "query", field: "permanent", message: "only a collection in the trash can be deleted for good" }] });
      }
      const summary = await summaryOf(tx, scope, id);
      await tx.testerCollection.delete({ where: { id } });
      return summary;
    }
    if (!row.deletedAt) await tx.testerCollection.update({ where: { id }, data: { deletedAt: new Date() } });
    return summaryOf(tx, scope, id);
  });
}

export async function restoreCollection(scope: NamespaceScope, id: string): Promise<CollectionSummary> {
  const row = await findCollection(db(), scope, id);
  if (row.deletedAt) await db().testerCollection.updateMany({ where: { id, namespaceId: scope.id }, data: { deletedAt: null } });
  return summaryOf(db(), scope, id);
}

/** Moves every named collection to the trash, or none: an id not in the namespace is a 404 naming it. */
export async function deleteCollections(scope: NamespaceScope, ids: string[]) {
  const unique = [...new Set(ids)];
  return transaction(async (tx) => {
    const found = new Set((await tx.testerCollection.findMany({ where: { id: { in: unique }, namespaceId: scope.id }, select: { id: true } })).map((r) => r.id));
    const missing = ids.map((id, i) => ({ id, i })).filter(({ id }) => !found.has(id));
    if (missing.length) {
      throw new AppError("not_found", `Collection '${missing[0].id}' not found in namespace '${scope.name}'`, {
        details: missing.map(({ id, i }) => ({ location: "body", field: `ids.${i}`, message: `collection '${id}' not found` })),
      });
    }
    await lockCollections(tx, unique);
    await tx.testerCollection.updateMany({ where: { id: { in: unique }, namespaceId: scope.id, deletedAt: null }, data: { deletedAt: new Date() } });
    return { deleted: unique.length, ids: unique };
  });
}

const COPY_SUFFIX = " (copy)";

/**
 * A deep, independent copy in the caller's namespace: folders (new ids, same
 * shape), requests, scripts, auth and variables with their sealed secrets.
 * The source may be a collection shared from another Space (spec: shared
 * collections can be copied, scripts and templates preserved); its secret
 * values stay behind — the copy keeps those keys, empty — so a share never
 * carries another Space's secrets into one that may run them.
 */
export async function duplicateCollection(actor: Actor, scope: NamespaceScope, id: string): Promise<CollectionView> {
  return transaction(async (tx) => {
    const { collection: source, crossSpace } = await reachCollection(scope, id, tx);
    await lockCollections(tx, [id]);
    const folders = treeOrder(await tx.testerFolder.findMany({ where: { collectionId: id } }));
    const requests = await tx.testerRequest.findMany({ where: { collectionId: id } });
    const copy = await tx.testerCollection.create({
      data: {
        namespaceId: scope.id,
        name: source.name.slice(0, 255 - COPY_SUFFIX.length) + COPY_SUFFIX,
        description: source.description,
        variables: (crossSpace ? storedVariables(source.variables).map((v) => (v.secret ? { ...v, value: "" } : v)) : source.variables) as Prisma.InputJsonValue,
        auth: source.auth as Prisma.InputJsonValue,
        scripts: source.scripts as Prisma.InputJsonValue,
        createdBy: actor.user.username,
      },
    });
    // Parents come first in tree order, so every parent's new id is known when its children are written.
    const newId = new Map(folders.map((f) => [f.id, randomUUID()]));
    if (folders.length) {
      await tx.testerFolder.createMany({
        data: folders.map((f) => ({
          id: newId.get(f.id)!,
          collectionId: copy.id,
          parentId: f.parentId ? newId.get(f.parentId)! : null,
          name: f.name,
          description: f.description,
          auth: f.auth as Prisma.InputJsonValue,
          scripts: f.scripts as Prisma.InputJsonValue,
          sortIndex: f.sortIndex,
        })),
      });
    }
    if (requests.length) {
      await tx.testerRequest.createMany({
        data: requests.map((r) => ({
          collectionId: copy.id,
          folderId: r.folderId ? (newId.get(r.folderId) ?? null) : null,
          name: r.name,
          sortIndex: r.sortIndex,
          kind: r.kind,
          method: r.method,
          url: r.url,
          definition: r.definition as Prisma.InputJsonValue,
          schemaVersion: r.schemaVersion,
        })),
      });
    }
    return collectionView(tx, scope, copy);
  });
}
