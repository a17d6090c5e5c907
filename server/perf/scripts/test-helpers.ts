// For the generators' tests: a real node:http server that records every
// request it gets (method, path, headers, body bytes), and a way to run a
// generated script once on the real load engine against it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type LoadRunResult, runLoadTest } from "@/server/perf/k6/engine";

export interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Target {
  base: string;
  port: number;
  seen: Seen[];
  close(): Promise<void>;
}

type Answer = (seen: Seen) => { status?: number; headers?: Record<string, string>; body?: string } | undefined;

export async function startTarget(answer: Answer = () => undefined): Promise<Target> {
  process.env.OUTBOUND_ALLOW_PRIVATE = "1";
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const s: Seen = { method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(s);
      const a = answer(s) ?? {};
      res.writeHead(a.status ?? 200, { "content-type": "application/json", ...a.headers });
      res.end(a.body ?? '{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** One VU, `iterations` iterations (the script's own load shape is replaced, as k6's CLI flags would). */
export async function runOnce(script: string, opts: { env?: Record<string, string>; hosts?: Record<string, string>; iterations?: number; files?: Record<string, string> } = {}): Promise<LoadRunResult> {
  const result = await runLoadTest({
    source: script,
    options: { vus: 1, iterations: opts.iterations ?? 1, duration: null, stages: null, ...(opts.hosts ? { hosts: opts.hosts } : {}) },
    env: opts.env,
    files: opts.files,
  });
  if (result.errors.length) throw new Error(`the script failed: ${result.errors.map((e) => e.message).join("; ")}\n${script}`);
  return result;
}
