// The agent's own life cycle against a small HTTP server that plays the
// platform's runner endpoints (the whole path with the real routes is in
// server/services/runners/runner-agents.db.test.ts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { RunnerAgent } from "./agent";

interface Seen {
  path: string;
  body: Record<string, unknown>;
}

/** Answers register after `registerDelayMs`, heartbeats at once, claims with no part after a short wait. */
async function fakePlatform(registerDelayMs: number) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const path = req.url ?? "";
      seen.push({ path, body: text ? JSON.parse(text) : {} });
      const answer = (value: unknown, delay = 0) =>
        setTimeout(() => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify(value));
        }, delay);
      if (path.endsWith("/register")) return answer({ id: "r1", name: "late", namespace: null, heartbeatIntervalMs: 60_000, claimWaitMaxSeconds: 1 }, registerDelayMs);
      if (path.endsWith("/claim")) return answer({ part: null }, 50);
      answer({ ok: true });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let platform: Awaited<ReturnType<typeof fakePlatform>> | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

describe("RunnerAgent", () => {
  it("stopped while the server is taking its registration: waits for it and reports itself offline", async () => {
    platform = await fakePlatform(300);
    const agent = new RunnerAgent({ server: platform.url, token: "t", name: "late", capacityVus: 1, log: () => {} });
    const started = agent.start();
    // The registration is in flight (the server answers after 300 ms) when the stop comes.
    await new Promise((r) => setTimeout(r, 100));
    await agent.stop();
    await started;
    await agent.finished();
    const paths = platform.seen.map((s) => s.path);
    expect(paths[0]).toBe("/api/v1/runners/register");
    const offline = platform.seen.find((s) => s.path === "/api/v1/runners/r1/heartbeat");
    expect(offline?.body.status).toBe("offline");
    // Stopped before it began: it never asked for work.
    expect(paths.some((p) => p.endsWith("/claim"))).toBe(false);
  });

  it("stopped once running: reports itself offline after its claim loop ends", async () => {
    platform = await fakePlatform(0);
    const agent = new RunnerAgent({ server: platform.url, token: "t", name: "late", capacityVus: 1, claimWaitSeconds: 1, log: () => {} });
    await agent.start();
    await new Promise((r) => setTimeout(r, 150));
    await agent.stop();
    await agent.finished();
    const heartbeats = platform.seen.filter((s) => s.path === "/api/v1/runners/r1/heartbeat");
    expect(heartbeats.at(-1)?.body.status).toBe("offline");
    expect(platform.seen.some((s) => s.path.endsWith("/claim"))).toBe(true);
  });
});
