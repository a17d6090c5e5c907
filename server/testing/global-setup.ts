import pg from "pg";
import { ensureTemplate, serverUrl } from "./test-db";

export default async function setup() {
  await ensureTemplate();
  // Drop databases left behind by runs that were killed.
  return async () => {
    const c = new pg.Client({ connectionString: serverUrl() });
    await c.connect();
    try {
      const rows = await c.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'polymock_t_%' AND (SELECT count(*) FROM pg_stat_activity a WHERE a.datname = pg_database.datname) = 0`,
      );
      for (const r of rows.rows) await c.query(`DROP DATABASE IF EXISTS ${r.datname}`).catch(() => {});
    } finally {
      await c.end();
    }
  };
}
