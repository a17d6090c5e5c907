import pg from "pg";
import { ensureTemplate, serverUrl } from "./test-db";

export default async function setup() {
  await ensureTemplate();
  // Drop databases left behind by runs that were killed.
  return async () => {
    const c = new pg.Client({ connectionString: serverUrl() });
    await c.connect();
    try {
      // Only databases over an hour old: other test runs may be working right now.
      const rows = await c.query<{ datname: string }>(String.raw`SELECT datname FROM pg_database WHERE datname ~ '^polymock_t_\d+_[0-9a-f]+$'`);
      const cutoff = Date.now() / 1000 - 3600;
      for (const { datname } of rows.rows) {
        if (Number(datname.split("_")[2]) < cutoff) await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
      }
    } finally {
      await c.end();
    }
  };
}
