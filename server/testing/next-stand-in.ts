// A stand-in for the Next.js process in tests of the front (server.ts's
// server): a node:http server on a Unix socket that calls the real app/ route
// modules it is given, the way Next.js's app router does — its own
// autoImplementMethods for HEAD, OPTIONS and the bodiless 405, and an HTML
// page for a path no route matches. `next build` is too heavy for Vitest; the
// e2e specs run the real one.
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response> | Response;
/** A route file's exports: handlers under method names, and config such as `dynamic`. */
type RouteModule = Record<string, unknown>;

const { autoImplementMethods } = createRequire(import.meta.url)("next/dist/server/route-modules/app-route/helpers/auto-implement-methods.js") as {
  autoImplementMethods(handlers: Partial<Record<string, Handler>>): Record<string, Handler>;
};

function handlersOf(module: RouteModule): Partial<Record<string, Handler>> {
  return Object.fromEntries(Object.entries(module).filter(([, v]) => typeof v === "function")) as Partial<Record<string, Handler>>;
}

export interface StandInRoute {
  /** "/api/v1/mocks/[id]", "/api/v1/[...path]" */
  pattern: string;
  module: RouteModule;
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

function matcher(pattern: string): (pathname: string) => Record<string, string | string[]> | null {
  const parts = pattern.split("/").filter(Boolean);
  return (pathname) => {
    const segs = pathname.split("/").filter(Boolean);
    const params: Record<string, string | string[]> = {};
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (p.startsWith("[...")) {
        if (i >= segs.length) return null;
        params[p.slice(4, -1)] = segs.slice(i).map(decodeURIComponent);
        return params;
      }
      if (i >= segs.length) return null;
      if (p.startsWith("[")) params[p.slice(1, -1)] = decodeURIComponent(segs[i]);
      else if (p !== segs[i]) return null;
    }
    return segs.length === parts.length ? params : null;
  };
}

async function toNode(response: Response, res: http.ServerResponse, method: string) {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  res.end(method === "HEAD" ? undefined : Buffer.from(await response.arrayBuffer()));
}

export async function startNextStandIn(routes: StandInRoute[]) {
  const socketPath = path.join(os.tmpdir(), `polymock-next-stand-in-${process.pid}-${Math.random().toString(36).slice(2)}.sock`);
  // Static segments win over dynamic ones, and catch-alls come last, as in Next.js.
  const rank = (p: string) => (p.includes("[...") ? 2 : p.includes("[") ? 1 : 0);
  const table = [...routes].sort((a, b) => rank(a.pattern) - rank(b.pattern)).map((r) => ({ match: matcher(r.pattern), methods: autoImplementMethods(handlersOf(r.module)) }));
  const seen: SeenRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const method = req.method ?? "GET";
    seen.push({ method, url: req.url ?? "/", headers: req.headers });
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
    for (const route of table) {
      const params = route.match(url.pathname);
      if (!params) continue;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
      const hasBody = method !== "GET" && method !== "HEAD";
      const request = new Request(url, { method, headers, body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined, duplex: "half" } as RequestInit);
      const handler = route.methods[method] ?? (() => new Response(null, { status: 405 }));
      return toNode(await handler(request, { params: Promise.resolve(params) }), res, method);
    }
    res.writeHead(404, { "Content-Type": "text/html; charset=utf-8" });
    res.end("<!DOCTYPE html><html><body><h1>404</h1>This page could not be found.</body></html>");
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
