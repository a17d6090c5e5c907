// The collections and environment a saved run configuration (standalone test,
// schedule) names, checked inside the namespace before anything is saved or
// started. An id of another namespace and an id that does not exist get the
// same 404 message, so a reference never discloses what it points at.
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { NamespaceScope } from "../namespace-access";
import { collectionNotFound, inTrash } from "./access";

export function environmentNotFound(scope: NamespaceScope, id: string) {
  return new AppError("not_found", `Environment '${id}' not found in namespace '${scope.name}'`);
}

/** 404 for a collection or environment the namespace does not hold; 409 for a collection in the trash. */
export async function assertReferencesInNamespace(scope: NamespaceScope, collectionIds: string[], environmentId: string | null): Promise<void> {
  const unique = [...new Set(collectionIds)];
  const rows = await db().testerCollection.findMany({ where: { id: { in: unique }, namespaceId: scope.id }, select: { id: true, name: true, deletedAt: true } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of collectionIds) {
    const row = byId.get(id);
    if (!row) throw collectionNotFound(scope, id);
    if (row.deletedAt) throw inTrash(row);
  }
  if (environmentId) {
    const env = await db().testerEnvironment.findFirst({ where: { id: environmentId, namespaceId: scope.id }, select: { id: true } });
    if (!env) throw environmentNotFound(scope, environmentId);
  }
}
