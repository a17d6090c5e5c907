// Mocks from traffic in the browser: a response in the workspace becomes a
// mock at once ("Create mock now"), and a collection's menu generates mocks
// for all its requests with a summary of what was created.
import { expect, test } from "@playwright/test";
import { createMock, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi } from "./support/ui";

let ws: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "traffic");
  for (const r of ["a", "b"]) await createMock(api, ws.namespace, { http: { route: `/shop/${r}`, httpMethod: "GET" }, response: { statusCode: 200, payload: { item: r } } });
  const col = await api.post(`/api/v1/api-tester/collections?namespace=${ws.namespace}`, { data: { name: "Traffic", variables: [{ key: "base", value: `${process.env.E2E_BASE_URL}/stubs/${ws.namespace}` }] } });
  expect(col.status(), await col.text()).toBe(201);
  const id = (await col.json()).id as string;
  for (const r of ["a", "b"]) {
    const made = await api.post(`/api/v1/api-tester/collections/${id}/requests?namespace=${ws.namespace}`, { data: { name: `item ${r}`, url: `{{base}}/shop/${r}` } });
    expect(made.status(), await made.text()).toBe(201);
  }
  await api.dispose();
});

test("a response becomes a mock at once, and a collection's menu generates mocks with a summary", async ({ page }) => {
  test.setTimeout(180_000);
  await loginViaUi(page, ws.owner);
  await page.goto(`/tester?ns=${ws.namespace}`);
  await page.getByRole("treeitem", { name: /item a/ }).click();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const response = page.getByRole("region", { name: "Response" });
  await expect(response.getByTitle("Status")).toContainText("200", { timeout: 30_000 });
  await response.getByRole("button", { name: "Create mock now" }).click();
  await expect(page.getByText(/Mock “.+” created/).first()).toBeVisible({ timeout: 30_000 });

  await page.getByRole("button", { name: "Actions for Traffic" }).click();
  await page.getByRole("menuitem", { name: "Generate mocks" }).click();
  const dialog = page.getByRole("dialog", { name: /Generate mocks from “Traffic”/ });
  await dialog.getByLabel(/Send every request now/).check();
  await dialog.getByRole("button", { name: "Generate mocks" }).click();
  await expect(dialog.getByText(/2\s+mocks created or updated/)).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByRole("list", { name: "Created mocks" }).getByText(`/stubs/${ws.namespace}/shop/b`)).toBeVisible();
  await screenshot(page, "tester-generate-mocks");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
});
