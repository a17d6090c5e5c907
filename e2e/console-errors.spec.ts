// Every page of the console, loaded fresh after login, must leave the browser
// console clean: no hydration errors, no uncaught exceptions, no 404 for a
// favicon. A page that logs an error is broken even when it looks right.
import { expect, type Page, test } from "@playwright/test";
import { createMock, newWorkspace, patchMock, type Workspace } from "./support/mocks";
import { adminApi, loginViaUi, uniq } from "./support/ui";
import { admin } from "./support/session";

let ws: Workspace;
let mockId: string;
let chainId: string;
let perfConfigId: string;
const perfResultIds: string[] = [];

test.beforeAll(async () => {
  // Two short load runs wait for their end.
  test.setTimeout(180_000);
  const api = await adminApi();
  ws = await newWorkspace(api, "clean");
  chainId = uniq("chain");
  mockId = await createMock(api, ws.namespace, { id: uniq("clean"), chainId, http: { route: "/clean", httpMethod: "GET" }, response: { statusCode: 200, payload: { v: 1 } } });
  // A second version, so the history tab has something to compare and restore.
  await patchMock(api, ws.namespace, mockId, { response: { statusCode: 201, payload: { v: 2 } } });
  await api.fetch(`/stubs/${ws.namespace}/clean`);
  await api.fetch(`/stubs/${ws.namespace}/nothing-here`);
  // A load test with two short ended runs (the result, compare and trend pages need them) and a schedule.
  const q = `?namespace=${ws.namespace}`;
  const script = `import http from "k6/http";\nexport default function () { http.get(__ENV.BASE_URL + "/clean"); }\n`;
  const config = await api.post(`/api/v1/perf-configs${q}`, { data: { name: "Clean load", script, options: { vus: 1, iterations: 2 }, environment: { BASE_URL: `${process.env.E2E_BASE_URL}/stubs/${ws.namespace}` } } });
  expect(config.status(), await config.text()).toBe(201);
  perfConfigId = (await config.json()).id;
  for (let i = 0; i < 2; i++) {
    const run = await api.post(`/api/v1/perf-configs/${perfConfigId}/run${q}`, { data: {} });
    expect(run.status(), await run.text()).toBe(202);
    const id = (await run.json()).id as string;
    await expect.poll(async () => (await (await api.get(`/api/v1/perf-results/${id}${q}`)).json()).status, { timeout: 60_000 }).toBe("passed");
    perfResultIds.push(id);
  }
  const schedule = await api.post(`/api/v1/perf-schedules${q}`, { data: { name: "Clean nightly", configId: perfConfigId, cron: "0 3 * * *", timezone: "UTC", enabled: false } });
  expect(schedule.status(), await schedule.text()).toBe(201);
  await api.dispose();
});

/** Collects console errors and uncaught exceptions from the moment it is called. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`${page.url()}: console.error: ${msg.text()} ${msg.location().url ?? ""}`);
  });
  page.on("pageerror", (err) => errors.push(`${page.url()}: pageerror: ${err.message}`));
  page.on("response", (res) => {
    if (res.status() >= 400 && res.request().resourceType() !== "fetch" && res.request().resourceType() !== "xhr") errors.push(`${page.url()}: ${res.status()} for ${res.url()}`);
  });
  return errors;
}

/** Loads `path` from scratch (server render + hydration) and waits until its data has arrived. */
async function visit(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await settled(page);
}

/** No loading placeholders left (live-update streams stay open, so "network idle" never comes). */
async function settled(page: Page) {
  // Monaco and the first queries can take a while on a busy machine; waiting is not asserting a time.
  await expect(page.getByRole("status", { name: /^Loading/ })).toHaveCount(0, { timeout: 30_000 });
  await expect(page.locator("main [data-slot=skeleton]")).toHaveCount(0, { timeout: 30_000 });
}

const PAGES = [
  "/dashboard",
  "/mocks",
  "/mocks?view=bin",
  "/mocks/new",
  "/undefined-requests",
  "/logs",
  "/mail",
  "/stores",
  "/templates",
  "/protocol-servers",
  "/grpc",
  "/namespaces",
  "/tester",
  "/tester/runner",
  "/tester/runs",
  "/tester/environments",
  "/tester/import",
  "/tester/tests",
  "/tester/schedules",
  "/perf",
  "/perf/new",
  "/perf/schedules",
  "/perf/runners",
  "/settings/profile",
  "/settings/tokens",
  "/admin/users",
  "/admin/namespaces",
  "/admin/identity-providers",
  "/admin/email",
  "/admin/audit",
];

test("no page of the console logs an error after login", async ({ page }) => {
  // Some forty pages, each loaded from scratch.
  test.setTimeout(300_000);
  const errors = collectErrors(page);
  await loginViaUi(page, admin);
  for (const path of PAGES) await visit(page, `${path}${path.includes("?") ? "&" : "?"}ns=${ws.namespace}`);
  await visit(page, `/mocks/${encodeURIComponent(mockId)}?ns=${ws.namespace}`);
  for (const name of ["JSON", "Try it", "History", "Request log", "Chain"]) {
    const tab = page.getByRole("tab", { name });
    await tab.click();
    await expect(tab).toHaveAttribute("aria-selected", "true");
    await settled(page);
  }
  await visit(page, `/mocks/chains/${encodeURIComponent(chainId)}?ns=${ws.namespace}`);
  await visit(page, `/perf/configs/${perfConfigId}?ns=${ws.namespace}`);
  for (const name of ["Runs", "Trend"]) {
    await page.getByRole("tab", { name }).click();
    await settled(page);
  }
  await visit(page, `/perf/results/${perfResultIds[0]}?ns=${ws.namespace}`);
  await visit(page, `/perf/compare?ids=${perfResultIds.join(",")}&ns=${ws.namespace}`);
  expect(errors).toEqual([]);
});

test("the login page and the dark theme load without errors, with a favicon", async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Log in", exact: true })).toBeVisible();
  const icon = await page.request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  const robots = await page.request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toMatch(/Disallow: \/\s*$/m);
  await loginViaUi(page, admin);
  await page.evaluate(() => localStorage.setItem("theme", "dark"));
  await visit(page, `/dashboard?ns=${ws.namespace}`);
  await expect(page.locator("html")).toHaveClass(/dark/);
  await visit(page, `/mocks?ns=${ws.namespace}`);
  expect(errors).toEqual([]);
});

test("restoring a version leaves no disposed editor model behind", async ({ page }) => {
  const errors = collectErrors(page);
  await loginViaUi(page, admin);
  const api = await adminApi();
  const id = await createMock(api, ws.namespace, { id: uniq("restore"), http: { route: `/${uniq("r")}`, httpMethod: "GET" }, response: { statusCode: 200, payload: { v: 1 } } });
  await patchMock(api, ws.namespace, id, { http: { route: "/restored" }, response: { payload: { v: 2 } } });
  await api.dispose();
  await visit(page, `/mocks/${encodeURIComponent(id)}?ns=${ws.namespace}&tab=history`);
  await expect(page.getByRole("region", { name: "Differences between version 1 and version 2" })).toContainText("restored");
  await page.getByRole("button", { name: "Restore version 1" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Restore version" }).click();
  await expect(page.getByText("Restored; the mock is now version 3")).toBeVisible();
  await expect(page.getByRole("region", { name: "Differences between version 2 and version 3" })).toBeVisible();
  await page.getByRole("tab", { name: "JSON" }).click();
  await page.getByRole("tab", { name: "History" }).click();
  await settled(page);
  expect(errors).toEqual([]);
});
