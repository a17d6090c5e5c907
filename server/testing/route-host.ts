// A process for crash tests: what `npm start` does up to the web process
// (lock the data directory, start the embedded PostgreSQL, migrate, create the
// admin), then the real /api/v1 route handlers on node:http. It stands in for
// the Next.js child, which needs a production build (`next build`) that test
// runs do not have; the handlers, services and database are the real ones.
// Prints one line `READY {"port":…,"databaseUrl":…}` when it serves.
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { lockDataDir, startEmbeddedDatabase } from "@/server/db/embedded";
import { migrate } from "@/server/db/migrate";
import { documentedOperations, loadHandlers } from "./api-routes";

async function main() {
  const dataDir = path.resolve(process.env.DATA_DIR!);
  await lockDataDir(dataDir);
  const embedded = await startEmbeddedDatabase(dataDir, (m) => console.log(`[route-host] ${m}`));
  process.env.DATABASE_URL = embedded.url;
  await migrate(embedded.url);
  const { bootstrap } = await import("@/server/services/bootstrap");
  await bootstrap({ adminPassword: process.env.ADMIN_PASSWORD });

  const handlers = await loadHandlers();
  // Static segments before parameters, as Next.js routes them (/mocks/batch before /mocks/{id}).
  const routes = documentedOperations()
    .map((key) => {
      const [method, template] = key.split(" ");
      const names: string[] = [];
      const source = template.replace(/[.]/g, "\\.").replace(/\{(\w+)\}/g, (_, n: string) => (names.push(n), "([^/]+)"));
      return { method, names, pattern: new RegExp(`^${source}$`), handler: handlers.get(key)!, weight: names.length };
    })
    .sort((a, b) => a.weight - b.weight);

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const route = routes.find((r) => r.method === req.method && r.pattern.test(url.pathname));
    if (!route) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "No such route", code: "not_found", request_id: "route-host" }));
      return;
    }
    const values = route.pattern.exec(url.pathname)!.slice(1);
    const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(values[i])]));
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    headers.set("x-polymock-peer", req.socket.remoteAddress ?? "127.0.0.1");
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(url, { method: req.method, headers, body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined, duplex: "half" } as RequestInit);
    const response = await route.handler(request, { params: Promise.resolve(params) });
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((v, k) => (out[k] = v));
    const cookies = response.headers.getSetCookie();
    if (cookies.length) out["set-cookie"] = cookies;
    res.writeHead(response.status, out).end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  console.log(`READY ${JSON.stringify({ port, databaseUrl: embedded.url })}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
