// The HTTP target of load-test and generated-script tests: a real node:http
// server that records every request it gets (method, path, headers, body
// bytes) and answers what the test says (200 {"ok":true} unless told),
// optionally after a delay. `useTarget()` gives a test file one target,
// started before its tests and closed after them.
import type http from "node:http";
import { afterAll, beforeAll } from "vitest";
import { readAll, startServer } from "./http-test-servers";

export interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Target {
  base: string;
  port: number;
  /** Every request so far, in arrival order; `seen.length = 0` starts counting again. */
  seen: Seen[];
  close(): Promise<void>;
}

export interface TargetAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer this much later (a slow endpoint). */
  delayMs?: number;
}

export type Answer = (seen: Seen) => TargetAnswer | undefined;

export async function startTarget(answer: Answer = () => undefined): Promise<Target> {
  // The load engine and the tester refuse private addresses unless told otherwise; the target is on 127.0.0.1.
  process.env.OUTBOUND_ALLOW_PRIVATE = "1";
  const seen: Seen[] = [];
  const server = await startServer((req, res) => {
    void readAll(req).then((body) => {
      const s: Seen = { method: req.method!, path: req.url!, headers: req.headers, body };
      seen.push(s);
      const a = answer(s) ?? {};
      const send = () => res.writeHead(a.status ?? 200, { "content-type": "application/json", ...a.headers }).end(a.body ?? '{"ok":true}');
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  return { base: server.url, port: server.port, seen, close: () => server.close() };
}

/** One target for the test file (started in beforeAll, closed in afterAll); read its fields inside tests. */
export function useTarget(answer?: Answer): Target {
  let target: Target | undefined;
  beforeAll(async () => {
    target = await startTarget(answer);
  });
  afterAll(() => target?.close());
  const started = () => {
    if (!target) throw new Error("the target starts in beforeAll: read it inside hooks and tests");
    return target;
  };
  return {
    get base() {
      return started().base;
    },
    get port() {
      return started().port;
    },
    get seen() {
      return started().seen;
    },
    close: () => started().close(),
  };
}
