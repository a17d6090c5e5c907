// The web process and the protocol-runner serve on their own (issue 12): a
// crash of one (SIGKILL, the worst kind) leaves the other serving its mocks,
// and the launcher brings the dead one back. Also the runner end to end under
// `npm start`'s launcher: a TCP mock created through the API is answered by
// the runner's listener.
import { readFileSync } from "node:fs";
import net from "node:net";
import { expect, test } from "@playwright/test";
import { ADMIN_PASSWORD, freePort, startServer, type RunningServer } from "./support/server";

test.describe.configure({ mode: "serial", timeout: 240_000 });

let server: RunningServer;
let cookie: string;
let tcpPort: number;

/** The launcher's child whose command line runs `entry` (server.ts or protocol-runner/main.ts, bundled or not). */
function childRunning(entry: RegExp): number | undefined {
  const kids = readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return kids.find((pid) => {
    try {
      return entry.test(readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " "));
    } catch {
      return false;
    }
  });
}
const webPid = () => childRunning(/server\.(ts|m?js)\b/);
const runnerPid = () => childRunning(/protocol-runner/);

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.baseUrl}${path}`, { method, headers: { cookie, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** One newline-framed exchange with the runner's TCP listener; rejects if nothing answers within 2 s. */
function askTcp(line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(tcpPort, "127.0.0.1");
    let got = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no reply to ${line}`));
    }, 2000);
    socket.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on("connect", () => socket.write(`${line}\n`));
    socket.on("data", (d) => {
      got += d;
      if (!got.includes("\n")) return;
      clearTimeout(timer);
      socket.destroy();
      resolve(got.trimEnd());
    });
  });
}

async function stubAnswers(): Promise<boolean> {
  try {
    const res = await fetch(`${server.baseUrl}/stubs/sandbox/restart/ping`);
    return res.status === 200 && (await res.json()).pong === true;
  } catch {
    return false;
  }
}

test.beforeAll(async () => {
  server = await startServer();
  const login = await fetch(`${server.baseUrl}/api/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: ADMIN_PASSWORD }) });
  expect(login.status).toBe(200);
  cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
  tcpPort = await freePort();
  const created = await api("POST", "/api/v1/protocol-servers?namespace=sandbox", { name: "restart-echo", protocol: "tcp", host: "127.0.0.1", port: tcpPort, options: { framing: "newline" } });
  await api("POST", "/api/v1/mocks?namespace=sandbox", { id: "restart-tcp", socket: { serverName: "restart-echo", event: "ping" }, response: { payload: { pong: "$.req.n" } } });
  await api("POST", "/api/v1/mocks?namespace=sandbox", { id: "restart-http", http: { route: "/restart/ping", httpMethod: "GET" }, response: { payload: { pong: true } } });
  await expect.poll(async () => (await api("GET", `/api/v1/protocol-servers/${created.id}?namespace=sandbox`)).state, { timeout: 15_000 }).toBe("listening");
});

test.afterAll(async () => {
  await server?.stop();
});

test("a TCP mock created through the API is answered by the runner that npm start runs", async () => {
  await expect.poll(() => askTcp('{"event":"ping","data":{"n":1}}').catch((e: Error) => e.message), { timeout: 10_000 }).toBe('{"pong":1}');
  const health = await (await fetch(`${server.baseUrl}/health`)).json();
  expect(health.checks.protocolRunner.status).toBe("up");
  expect(health.checks.protocolRunner.listeners).toContainEqual(expect.objectContaining({ name: "restart-echo", state: "listening", port: tcpPort }));
});

test("the runner keeps serving while the web process is down, and the launcher restarts the web process", async () => {
  const web = webPid();
  expect(web).toBeDefined();
  const runner = runnerPid();
  process.kill(web!, "SIGKILL");
  // The web port is closed (nothing answers stubs or the API) while the runner still answers.
  await expect.poll(stubAnswers, { timeout: 5_000 }).toBe(false);
  expect(await askTcp('{"event":"ping","data":{"n":2}}')).toBe('{"pong":2}');
  // Back within the launcher's first restart delay plus a start-up.
  await expect.poll(stubAnswers, { timeout: 60_000 }).toBe(true);
  expect(webPid()).not.toBe(web);
  expect(runnerPid()).toBe(runner);
  expect(await askTcp('{"event":"ping","data":{"n":3}}')).toBe('{"pong":3}');
});

test("the web process keeps serving while the runner is down, reports it down, and the launcher restarts the runner", async () => {
  const runner = runnerPid();
  expect(runner).toBeDefined();
  const web = webPid();
  process.kill(runner!, "SIGKILL");
  await expect.poll(() => askTcp('{"event":"ping","data":{"n":4}}').catch(() => "down"), { timeout: 5_000 }).toBe("down");
  expect(await stubAnswers()).toBe(true);
  const health = await (await fetch(`${server.baseUrl}/health`)).json();
  // Either already seen down, or (on a slow machine) already back: never a failed web health.
  expect(["down", "up"]).toContain(health.checks.protocolRunner.status);
  await expect.poll(() => askTcp('{"event":"ping","data":{"n":5}}').catch((e: Error) => e.message), { timeout: 60_000 }).toBe('{"pong":5}');
  expect(runnerPid()).not.toBe(runner);
  expect(webPid()).toBe(web);
});
