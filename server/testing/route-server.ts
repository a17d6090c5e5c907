// Some /api/v1 route handlers on a real node:http server in the test's own
// process, routed as Next.js routes them (static segments before [params]),
// for tests whose clients speak HTTP (runner agents, the CLI). A client that
// hangs up aborts the handler's request signal, as in Next.js. For the whole
// documented API in a process of its own, see route-host.ts.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** A route file's path pattern ("/api/v1/runners/[id]/claim") and its module. */
export type RouteTable = [string, Record<string, unknown>][];

export interface RouteServer {
  server: http.Server;
  /** Starts listening; answers the base URL. */
  listen(): Promise<string>;
  /** Resolves when no handler is running (long polls included). */
  settled(): Promise<void>;
  close(): Promise<void>;
  /** A JSON request to the server with a bearer token or a session cookie; the body parsed. */
  call(method: string, pathname: string, opts?: { body?: unknown; token?: string; cookie?: string }): Promise<{ status: number; body: any }>;
}

export function routeServer(routes: RouteTable): RouteServer {
  const dynamic = (parts: string[]) => parts.filter((p) => p.startsWith("[")).length;
  const table = routes.map(([pattern, module]) => ({ parts: pattern.split("/").filter(Boolean), module })).sort((a, b) => dynamic(a.parts) - dynamic(b.parts));
  let inFlight = 0;
  let base = "";
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const segs = url.pathname.split("/").filter(Boolean);
    for (const route of table) {
      if (route.parts.length !== segs.length) continue;
      const params: Record<string, string> = {};
      if (!route.parts.every((p, i) => (p.startsWith("[") ? ((params[p.slice(1, -1)] = decodeURIComponent(segs[i])), true) : p === segs[i]))) continue;
      const handler = route.module[req.method ?? "GET"] as Handler | undefined;
      if (!handler) break;
      inFlight++;
      const hangup = new AbortController();
      res.on("close", () => hangup.abort());
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      headers.set("x-polymock-peer", "127.0.0.1");
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      try {
        const request = new Request(url, { method: req.method, headers, body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined, duplex: "half", signal: hangup.signal } as RequestInit);
        const response = await handler(request, { params: Promise.resolve(params) });
        res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/json" }).end(Buffer.from(await response.arrayBuffer()));
      } catch (e) {
        if (!res.headersSent) res.writeHead(500).end(String(e));
      } finally {
        inFlight--;
      }
      return;
    }
    res.writeHead(404).end("{}");
  });
  return {
    server,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, "127.0.0.1", () => {
          base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
          resolve(base);
        }),
      ),
    settled: async () => {
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 50));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    async call(method, pathname, opts = {}) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (opts.cookie) headers.cookie = opts.cookie;
      const res = await fetch(`${base}${pathname}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
  };
}
