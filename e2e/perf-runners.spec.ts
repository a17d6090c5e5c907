// Runner agents in the browser, with a real agent: `polymock runner` started
// as a process with a namespace's integration token appears on the runner
// agents page online with its capacity, its credential shows one agent
// online, a load run of the namespace goes to it and is seen as a task that
// completes (its result page shows it passed, every request counted once),
// and Ctrl-C to the agent shows it offline. No page may log a console error
// on the way.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { type APIRequestContext, expect, request, test } from "@playwright/test";
import { createMock, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi } from "./support/ui";

let ws: Workspace;
let owner: APIRequestContext;
let token = "";
let agent: ChildProcess | undefined;
let agentLog = "";

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "runners");
  await createMock(api, ws.namespace, { http: { route: "/agent-target", httpMethod: "GET" }, response: { statusCode: 200, payload: { ok: true } } });
  await api.dispose();
  owner = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  expect((await owner.post("/api/v1/auth/login", { data: ws.owner })).status()).toBe(200);
  const res = await owner.post(`/api/v1/integrations/namespace/${ws.namespace}`, { data: { name: "e2e agent credential", permissions: ["read", "write"] } });
  expect(res.status(), await res.text()).toBe(201);
  token = (await res.json()).token;
});

test.afterAll(async () => {
  if (agent && agent.exitCode === null) agent.kill("SIGKILL");
  await owner?.dispose();
});

test("a real runner agent: online with its capacity, takes the namespace's load run, goes offline on Ctrl-C", async ({ page }) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`${page.url()}: console.error: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`${page.url()}: pageerror: ${err.message}`));

  agent = spawn(process.execPath, [path.resolve("bin/polymock.mjs"), "runner", "--server", process.env.E2E_BASE_URL!, "--capacity", "20", "--name", "e2e-agent", "--label", "e2e"], {
    // The token through the environment, as the usage text suggests (it stays out of the process list).
    env: { ...process.env, POLYMOCK_TOKEN: token, OUTBOUND_ALLOW_PRIVATE: "1", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // What the agent printed, shown if it dies before registering.
  agent.stdout!.on("data", (d) => (agentLog += d));
  agent.stderr!.on("data", (d) => (agentLog += d));
  agent.on("exit", (code) => {
    if (code !== 0 && code !== null) console.error(`polymock runner exited ${code}:\n${agentLog}`);
  });

  await loginViaUi(page, ws.owner);
  await page.goto(`/perf/runners?ns=${ws.namespace}`);
  const runners = page.getByRole("table", { name: "Runner agents" });
  const row = runners.getByRole("row").filter({ hasText: "e2e-agent" });
  // The page polls every 5 s; the agent registers once tsx has loaded it.
  await expect(row).toBeVisible({ timeout: 60_000 });
  await expect(row.getByText("online", { exact: true })).toBeVisible();
  await expect(row).toContainText("0 / 20 VUs");
  await expect(row).toContainText(ws.namespace);
  await expect(row.getByText("e2e", { exact: true })).toBeVisible();
  const credential = page.getByRole("table", { name: "Runner credentials" }).getByRole("row").filter({ hasText: "e2e agent credential" });
  // The credentials card polls every 10 s.
  await expect(credential).toContainText("1 of 1", { timeout: 30_000 });
  const credentialsHeading = page.getByRole("heading", { name: /^Credentials/ });
  await expect(credentialsHeading).toContainText("(1 of 1 agents online, 0 / 20 VUs in use)");
  await screenshot(page, "perf-runners-online");

  // With an agent online for the namespace, its load runs go to the agent (202 with a task).
  const run = await owner.post(`/api/v1/perf/run?namespace=${ws.namespace}`, {
    data: {
      name: "Agent smoke",
      script: 'import http from "k6/http";\nimport { check } from "k6";\nexport const options = { vus: 2, iterations: 20 };\nexport default function () { check(http.get(__ENV.BASE + "/agent-target"), { "is 200": (r) => r.status === 200 }); }',
      environment: { BASE: `${process.env.E2E_BASE_URL}/stubs/${ws.namespace}` },
    },
  });
  expect(run.status(), await run.text()).toBe(202);
  const { id, taskId } = await run.json();
  expect(taskId).toBeTruthy();

  const task = page.getByRole("table", { name: "Runner tasks" }).getByRole("row").filter({ hasText: "Agent smoke" });
  await expect(task.getByText("completed", { exact: true })).toBeVisible({ timeout: 90_000 });
  await expect(task).toContainText("1/1");
  await screenshot(page, "perf-runners-task");
  await task.getByRole("link", { name: "Agent smoke" }).click();
  await expect(page).toHaveURL(new RegExp(`/perf/results/${id}`));
  await expect(page.locator("main [data-slot=badge]").filter({ hasText: /^passed$/ }).first()).toBeVisible({ timeout: 30_000 });
  const result = await (await owner.get(`/api/v1/perf-results/${id}?namespace=${ws.namespace}`)).json();
  expect(result.metrics.http_reqs.values.count).toBe(20);

  // Ctrl-C: the agent says goodbye, and the page shows it offline.
  agent.kill("SIGINT");
  await expect.poll(() => agent!.exitCode, { timeout: 60_000 }).toBe(0);
  await page.goto(`/perf/runners?ns=${ws.namespace}`);
  await expect(row.getByText("offline", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("table", { name: "Runner credentials" }).getByRole("row").filter({ hasText: "e2e agent credential" })).toContainText("0 of 1", { timeout: 30_000 });
  // With no agent online there are no VUs to count: the heading does not say "0 / 0 VUs in use".
  await expect(credentialsHeading).toContainText("(0 of 1 agents online)");
  await screenshot(page, "perf-runners-offline");
  expect(errors).toEqual([]);
});
