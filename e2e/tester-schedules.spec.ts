// Schedules in the browser: create one over a collection (the cron field is
// checked while typing, with its next occurrences in the chosen time zone),
// see the next occurrences on the list, trigger it now, and open its run.
import { expect, test } from "@playwright/test";
import { createMock, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi } from "./support/ui";

let ws: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "sched");
  await createMock(api, ws.namespace, { http: { route: "/health", httpMethod: "GET" }, response: { statusCode: 200, payload: { ok: true } } });
  const collection = await api.post(`/api/v1/api-tester/collections?namespace=${ws.namespace}`, { data: { name: "Health checks" } });
  expect(collection.status(), await collection.text()).toBe(201);
  const { id } = await collection.json();
  const request = await api.post(`/api/v1/api-tester/collections/${id}/requests?namespace=${ws.namespace}`, {
    data: { name: "health", url: `${process.env.E2E_BASE_URL}/stubs/${ws.namespace}/health`, scripts: { test: "pm.test('Status code is 200', () => pm.response.to.have.status(200))" } },
  });
  expect(request.status(), await request.text()).toBe(201);
  await api.dispose();
});

test("a schedule is created with a live-checked cron, shows its next occurrences, runs now and links to its run", async ({ page }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await loginViaUi(page, ws.owner);
  await page.goto(`/tester/schedules?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "No schedules yet" })).toBeVisible();
  await screenshot(page, "tester-schedules-empty");

  await page.getByRole("button", { name: "New schedule" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New schedule" });
  await dialog.getByLabel("Name").fill("Morning health");
  const cron = dialog.getByLabel("Cron expression");
  // A wrong expression is named before saving, with croner's own words.
  await cron.fill("61 9 * * *");
  await expect(dialog.getByText(/Invalid value for minute: 61/).first()).toBeVisible();
  await cron.fill("30 7 * * 1-5");
  await expect(dialog.getByText("Runs on weekdays at 07:30")).toBeVisible();
  await dialog.getByLabel("Time zone").fill("Asia/Tokyo");
  const preview = dialog.getByRole("region", { name: "Next occurrences" });
  await expect(preview.getByRole("listitem")).toHaveCount(5);
  await expect(preview.getByRole("listitem").first()).toContainText("07:30");
  await dialog.getByLabel("Health checks").check();
  await screenshot(page, "tester-schedules-form");
  await dialog.getByRole("button", { name: "Create schedule" }).click();
  await expect(dialog).toBeHidden();

  const occurrences = page.getByRole("region", { name: "Next occurrences of Morning health" });
  await expect(occurrences.getByRole("listitem")).toHaveCount(5);
  for (const item of await occurrences.getByRole("listitem").all()) await expect(item).toContainText("07:30");
  await expect(page.getByText("never")).toBeVisible();
  await screenshot(page, "tester-schedules-list");

  await page.getByRole("button", { name: "Run now" }).click();
  const lastRun = page.getByRole("link", { name: /passed/ });
  await expect(lastRun).toBeVisible({ timeout: 60_000 });
  await lastRun.click();
  await expect(page).toHaveURL(/\/tester\/runs\/[0-9a-f-]{36}/);
  await expect(page.getByRole("heading", { name: "Test run" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Run Morning health" }).getByRole("heading", { name: "Morning health" })).toBeVisible();
  await expect(page.getByText("passed").first()).toBeVisible();

  // Disabling keeps the schedule and clears its upcoming occurrences.
  await page.goto(`/tester/schedules?ns=${ws.namespace}`);
  await page.getByRole("switch", { name: "Morning health enabled" }).uncheck();
  await expect(page.getByText("None while disabled.")).toBeVisible();
  expect(errors).toEqual([]);
});
