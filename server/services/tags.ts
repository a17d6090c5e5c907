// Tags of a namespace: the union of tags created explicitly (Tag rows, which
// carry a colour) and tags used by active mocks (the Mock.tags column), each
// with the number of active mocks carrying it.
import type { z } from "zod";
import type { CreateTagInput, TagView } from "@/server/contracts/organisation-endpoints";
import { db, Prisma } from "@/server/db/client";
import { errors } from "@/server/errors";
import type { NamespaceScope } from "./namespace-access";

type View = z.output<typeof TagView>;

export async function listTags(scope: NamespaceScope) {
  const [used, created] = await Promise.all([
    // count(DISTINCT pk): a mock listing a tag twice still counts once.
    db().$queryRaw<{ name: string; n: number }[]>`
      SELECT t AS name, count(DISTINCT m."pk")::int AS n
      FROM "Mock" m CROSS JOIN LATERAL unnest(m."tags") AS t
      WHERE m."namespaceId" = ${scope.id}::uuid AND m."deletedAt" IS NULL
      GROUP BY t`,
    db().tag.findMany({ where: { namespaceId: scope.id }, select: { name: true, color: true } }),
  ]);
  const byName = new Map<string, View>();
  for (const t of created) byName.set(t.name, { name: t.name, color: t.color, mockCount: 0 });
  for (const u of used) byName.set(u.name, { name: u.name, color: byName.get(u.name)?.color ?? null, mockCount: u.n });
  // Code-point order: stable across locales and database collations.
  const tags = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { tags, count: tags.length };
}

/** Creates a tag; 409 when one of that name was already created (a tag only used by mocks can be created, to give it a colour). */
export async function createTag(scope: NamespaceScope, input: z.output<typeof CreateTagInput>): Promise<View> {
  try {
    const tag = await db().tag.create({ data: { namespaceId: scope.id, name: input.name, color: input.color ?? null } });
    const mockCount = await db().mock.count({ where: { namespaceId: scope.id, deletedAt: null, tags: { has: tag.name } } });
    return { name: tag.name, color: tag.color, mockCount };
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw errors.conflict(`Tag '${input.name}' already exists`, [{ location: "body", field: "name", message: "already exists" }]);
    }
    throw err;
  }
}
