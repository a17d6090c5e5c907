// Prisma CLI configuration. The CLI runs in its "JS schema engine" mode so that
// it never downloads a native engine (machines here reach only npm and apt;
// see docs/decisions.md and shared/notes/database-offline.md). The adapter
// below is used by the CLI only (migrate diff, studio); the application builds
// its own in server/db/client.ts.
import path from "node:path";
import { defineConfig } from "prisma/config";

async function cliAdapter() {
  const pg = (await import("pg")).default;
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const NAME_OID = 19;
  const CHAR_OID = 18;
  const TEXT_OID = 25;

  // Work-around (prisma/orm#27403): the adapter cannot deserialize catalog
  // columns of type `name` and `"char"`, which the schema engine reads when it
  // introspects. They are plain text, so report them as text.
  const asText = (result: { fields?: { dataTypeID: number }[] } | undefined) => {
    for (const field of result?.fields ?? []) {
      if (field.dataTypeID === NAME_OID || field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
    }
    return result;
  };
  class CatalogSafeClient extends pg.Client {
    query(...args: any[]): any {
      const last = args[args.length - 1];
      if (typeof last === "function") {
        args[args.length - 1] = (err: unknown, res: never) => last(err, asText(res));
        return (super.query as (...a: unknown[]) => unknown)(...args);
      }
      const out = (super.query as (...a: unknown[]) => unknown)(...args);
      return out instanceof Promise ? out.then(asText) : out;
    }
  }

  // Separate fields, not a connection string: otherwise the shadow database
  // created by `migrate dev` points back at the main one (P3006).
  const url = new URL(process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  return new PrismaPg({
    Client: CatalogSafeClient,
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username || "postgres"),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1) || "postgres",
    // Short idle timeout and unreferenced timers: the CLI must exit when done.
    idleTimeoutMillis: 100,
    allowExitOnIdle: true,
    max: 2,
  });
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  adapter: cliAdapter,
});
