// The protocol-runner as its own process (protocol-runner/main.ts, as `npm
// start` runs it): a TCP protocol server and a mock saved in this process are
// picked up through NOTIFY alone and served to a real client; its health lists
// the listener; SIGTERM stops it cleanly and leaves the row `stopped`.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import { afterAll, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { CreateProtocolServerInput } from "@/server/contracts/protocol-servers";
import { db } from "@/server/db/client";
import { saveMock } from "@/server/services/mocks";
import { resolveNamespace } from "@/server/services/namespace-access";
import { createProtocolServer } from "@/server/services/protocol-servers";
import { actorFor, makeNamespace, makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { freePort, until } from "./testing";

useTestDatabase();

let child: ChildProcess | undefined;
afterAll(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
});



/** One line sent, the first line answered (undefined when nothing comes within `waitMs`). */
async function ask(port: number, line: string, waitMs = 300): Promise<string | undefined> {
  const socket = net.connect(port, "127.0.0.1");
  await once(socket, "connect");
  socket.write(`${line}\n`);
  let got = "";
  const answer = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), waitMs);
    socket.on("data", (d: Buffer) => {
      got += d.toString();
      if (got.includes("\n")) {
        clearTimeout(timer);
        resolve(got.slice(0, got.indexOf("\n")));
      }
    });
  });
  socket.destroy();
  return answer;
}

it("serves a protocol server and a mock created after it started, reports them on its health, and stops cleanly", async () => {
  const { user } = await makeUser();
  await makeNamespace("proc", { [user.id]: "owner" });
  const actor = actorFor(user);
  const scope = await resolveNamespace(actor, "proc");
  const healthPort = await freePort();
  const grpcPort = await freePort();
  child = spawn(process.execPath, ["--import", "tsx", "protocol-runner/main.ts"], {
    env: { ...process.env, RUNNER_HEALTH_PORT: String(healthPort), GRPC_PORT: String(grpcPort), HOST: "127.0.0.1", LOG_LEVEL: "silent" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const health = async () => (await fetch(`http://127.0.0.1:${healthPort}/health`)).json();
  await until(async () => (await health()).status === "up", "the runner's health");

  const port = await freePort();
  const created = await createProtocolServer(scope, CreateProtocolServerInput.parse({ name: "proc-tcp", protocol: "tcp", port }));
  const listed = await until(async () => (await health()).listeners.find((l: { id: string; state: string }) => l.id === created.id && l.state === "listening"), "the listener in the runner's health");
  expect(listed).toMatchObject({ name: "proc-tcp", namespace: "proc", protocol: "tcp", port });
  expect(await ask(port, "hello")).toBeUndefined();

  await saveMock(actor, scope, MockInput.parse({ socket: { serverName: "proc-tcp" }, response: { payload: { echoed: "$.req" } } }));
  const reply = await until(() => ask(port, "hello"), "the new mock's reply");
  expect(JSON.parse(reply)).toEqual({ echoed: "hello" });

  child.kill("SIGTERM");
  const [code] = await once(child, "exit");
  expect(code).toBe(0);
  const row = await db().protocolServer.findUniqueOrThrow({ where: { id: created.id } });
  expect(row.state).toBe("stopped");
}, 60_000);
