// An API-tester collection load tested from the browser: "Load test…" in the
// collection's menu opens the dialog (the active environment preselected),
// a request with a script is refused by name with the reason, "Start without
// it" runs the rest against our own stub, and the result page goes live and
// ends passed. "Save as load test" turns the same selection into a saved
// load test with its generated k6 script. A new load test with edits asks
// before it is left. Every step is photographed.
import { expect, type Page, test } from "@playwright/test";
import { createMock, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi } from "./support/ui";

let ws: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "perfcol");
  const q = `?namespace=${ws.namespace}`;
  await createMock(api, ws.namespace, { http: { route: "/load-target", httpMethod: "GET" }, response: { statusCode: 200, payload: { ok: true } } });
  const env = await api.post(`/api/v1/api-tester/environments${q}`, { data: { name: "Stub", variables: { base: `${process.env.E2E_BASE_URL}/stubs/${ws.namespace}` } } });
  expect(env.status(), await env.text()).toBe(201);
  const col = await api.post(`/api/v1/api-tester/collections${q}`, { data: { name: "Shop" } });
  expect(col.status(), await col.text()).toBe(201);
  const id = (await col.json()).id as string;
  for (const data of [
    { name: "List items", url: "{{base}}/load-target" },
    { name: "Checked", url: "{{base}}/load-target", scripts: { test: "pm.test('ok', () => pm.response.to.have.status(200));" } },
  ]) {
    const made = await api.post(`/api/v1/api-tester/collections/${id}/requests${q}`, { data });
    expect(made.status(), await made.text()).toBe(201);
  }
  await api.dispose();
});

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    // Chromium's own line for the run refused on purpose (the scripted request, listed in the dialog).
    if (msg.text().startsWith("Failed to load resource") && /\/api\/trpc\/perf(Scripts)?\.(runCollection|fromCollections)/.test(msg.location().url ?? "")) return;
    errors.push(`${page.url()}: console.error: ${msg.text()} ${msg.location().url ?? ""}`);
  });
  page.on("pageerror", (err) => errors.push(`${page.url()}: pageerror: ${err.message}`));
  return errors;
}

async function openLoadTest(page: Page) {
  await page.getByRole("button", { name: "Actions for Shop" }).click();
  await page.getByRole("menuitem", { name: "Load test…" }).click();
  const dialog = page.getByRole("dialog", { name: /Load test collection “Shop”/ });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("Load test… on a collection: refused requests named, the rest runs live and passes", async ({ page }) => {
  test.setTimeout(240_000);
  const errors = collectErrors(page);
  await loginViaUi(page, ws.owner);
  await page.goto(`/tester?ns=${ws.namespace}`);
  await expect(page.getByRole("treeitem", { name: /List items/ })).toBeVisible({ timeout: 30_000 });
  // The workspace's environment becomes the dialog's default.
  await page.getByRole("combobox", { name: "Environment" }).click();
  await page.getByRole("option", { name: "Stub" }).click();
  await expect(page.getByRole("combobox", { name: "Environment" })).toContainText("Stub");

  const dialog = await openLoadTest(page);
  await expect(dialog.getByLabel("Environment")).toHaveValue(/^[0-9a-f-]{36}$/);
  await expect(dialog.getByLabel("Environment").locator("option:checked")).toHaveText("Stub");
  await dialog.getByLabel("Virtual users").fill("2");
  await dialog.getByLabel("Duration").fill("4s");
  await dialog.getByLabel("Duration").press("Tab");
  await screenshot(page, "perf-collection-dialog");

  // A bad duration is caught before anything is sent.
  await dialog.getByLabel("Duration").fill("soon");
  await dialog.getByRole("button", { name: "Start", exact: true }).click();
  await expect(dialog.getByText("a duration such as 30s, 1m30s or 500ms")).toBeVisible();
  await dialog.getByLabel("Duration").fill("4s");

  // The request with a test script needs a load script of its own: named, with why.
  await dialog.getByRole("button", { name: "Start", exact: true }).click();
  const refused = dialog.getByRole("alert").filter({ hasText: "1 request needs a dedicated load script" });
  await expect(refused).toBeVisible({ timeout: 30_000 });
  await expect(refused.getByRole("list", { name: /cannot be load tested/ }).getByRole("listitem")).toHaveText(/Checked\s+needs a dedicated load script: its test script/);
  await screenshot(page, "perf-collection-dialog-refused");

  await refused.getByRole("button", { name: "Start without it (1 request)" }).click();
  await expect(page).toHaveURL(/\/perf\/results\/[0-9a-f-]{36}/, { timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Load: Shop", level: 1 })).toBeVisible();
  await expect(page.getByTestId("run-charts")).toBeVisible({ timeout: 30_000 });
  await screenshot(page, "perf-collection-live");
  await expect(page.locator("main [data-slot=badge]").filter({ hasText: /^passed$/ }).first()).toBeVisible({ timeout: 90_000 });
  const httpReqs = page.getByRole("table", { name: "Metrics" }).getByRole("row").filter({ hasText: /^http_reqs/ });
  await expect(httpReqs).toBeVisible();
  await screenshot(page, "perf-collection-result");

  // The same selection saved as a load test: its generated script, to edit and run again.
  await page.goto(`/tester?ns=${ws.namespace}`);
  await expect(page.getByRole("treeitem", { name: /List items/ })).toBeVisible({ timeout: 30_000 });
  const again = await openLoadTest(page);
  await again.getByRole("button", { name: "Save as load test" }).click();
  await expect(again.getByRole("alert").filter({ hasText: "1 request needs a dedicated load script" })).toBeVisible({ timeout: 30_000 });
  // After a refusal, Save leaves the refused requests out as Start does.
  await again.getByRole("button", { name: "Save as load test without it" }).click();
  await expect(page).toHaveURL(/\/perf\/configs\/[0-9a-f-]{36}/, { timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Load: Shop", level: 1 })).toBeVisible();
  await expect(page.getByTestId("code-editor-k6 script")).toContainText("load-target", { timeout: 30_000 });
  await screenshot(page, "perf-collection-saved");

  // A new load test with edits asks before the sidebar takes the user away; one without edits does not.
  await page.goto(`/perf/new?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "New load test", level: 1 })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("Half written");
  const loadTests = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Load tests" });
  await loadTests.click();
  const leave = page.getByRole("alertdialog", { name: "Leave without saving?" });
  await expect(leave).toBeVisible();
  await leave.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/perf\/new/);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Half written");
  await loadTests.click();
  await leave.getByRole("button", { name: "Leave without saving" }).click();
  await expect(page).toHaveURL(/\/perf\?ns=/);
  expect(errors).toEqual([]);
});
