// `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
// with the SQL that takes the migrations on disk to prisma/schema.prisma.
// Runs offline (prisma.config.ts); needs any PostgreSQL in DATABASE_URL for the shadow database.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]+/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(2);
}
process.env.DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/postgres";
const result = spawnSync(
  path.join("node_modules", ".bin", "prisma"),
  ["migrate", "diff", "--from-migrations", "prisma/migrations", "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
  { encoding: "utf8", env: { ...process.env, CHECKPOINT_DISABLE: "1" } },
);
if (result.status !== 0) {
  console.error(result.stderr);
  process.exit(1);
}
if (/This is an empty migration/.test(result.stdout)) {
  console.log("schema.prisma matches the migrations: nothing to write");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
const dir = path.join("prisma", "migrations", `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "migration.sql"), result.stdout);
console.log(`wrote ${dir}/migration.sql; run \`npx prisma generate\` and restart`);
