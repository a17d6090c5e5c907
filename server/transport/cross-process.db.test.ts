// A mock created in one process is served by another process, which learns of
// it through PostgreSQL NOTIFY (no polling of the database for mocks).
import { spawn } from "node:child_process";
import { expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { resolveNamespace } from "@/server/services/namespace-access";
import { saveMock } from "@/server/services/mocks";
import { actorFor, makeNamespace, makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

it("a mock saved here is served by another process soon after", async () => {
  const { user } = await makeUser();
  await makeNamespace("sandbox", { [user.id]: "owner" });
  const actor = actorFor(user);
  const scope = await resolveNamespace(actor, "sandbox");

  const child = spawn(process.execPath, ["--import", "tsx", "server/testing/stub-probe.ts", "sandbox", "/fresh"], {
    env: { ...process.env, LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  const waitFor = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = lines.find((l) => l.startsWith(prefix));
        if (line) resolve(line);
      };
      child.stdout!.on("data", (d: Buffer) => {
        lines.push(...d.toString().trim().split("\n"));
        check();
      });
      child.once("exit", () => setTimeout(() => reject(new Error(`probe exited: ${lines.join(" | ")}`)), 50));
      check();
    });

  await waitFor("ready");
  await saveMock(actor, scope, MockInput.parse({ http: { route: "/fresh" }, response: { payload: "hello" } }));
  const savedAt = Date.now();
  const served = await waitFor("served");
  const latency = Number(served.split(" ")[1]) - savedAt;
  console.log(`cross-process: served by the other process ${latency} ms after the save committed`);
  expect(served).toMatch(/^served \d+$/);
}, 20_000);
