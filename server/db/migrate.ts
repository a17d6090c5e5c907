// Applies prisma/migrations/*/migration.sql in order, offline, at every start.
// It keeps Prisma's own bookkeeping table (_prisma_migrations, same columns and
// sha256 checksums), so `prisma migrate status` and `migrate diff` agree with it.
// A PostgreSQL advisory lock lets several processes or replicas start at once.
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

const LOCK_KEY = 577_001; // arbitrary, constant: "polymock migrations"

export interface MigrationResult {
  applied: string[];
  total: number;
}

export function migrationsDir(): string {
  return path.resolve(process.env.MIGRATIONS_DIR ?? path.join(process.cwd(), "prisma", "migrations"));
}

async function listMigrations(dir: string) {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

export async function migrate(databaseUrl: string, dir = migrationsDir()): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const doneByName = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    const migrations = await listMigrations(dir);
    const applied: string[] = [];
    for (const m of migrations) {
      const previous = doneByName.get(m.name);
      if (previous !== undefined) {
        if (previous !== m.checksum) {
          throw new Error(`Migration ${m.name} was changed after it was applied (checksum differs)`);
        }
        continue;
      }
      // Each migration and its bookkeeping row commit together or not at all.
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count, started_at)
           VALUES ($1, $2, now(), $3, 1, now())`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`Migration ${m.name} failed: ${(err as Error).message}`);
      }
      applied.push(m.name);
    }
    return { applied, total: migrations.length };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

/** True when every migration on disk is applied (readiness check). */
export async function isMigrated(query: (sql: string) => Promise<{ migration_name: string }[]>, dir = migrationsDir()) {
  const names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const rows = await query(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const applied = new Set(rows.map((r) => r.migration_name));
  return names.every((n) => applied.has(n));
}
