import { expect, test } from "@playwright/test";
import { createMock, choose, fillCode, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

let ws: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "edit");
  await api.dispose();
});

test("create an HTTP mock with a condition in the form, try it, edit it as JSON, compare versions and restore one", async ({ page }) => {
  // The longest walk through the editor: Monaco loads several times.
  test.slow();
  await loginViaUi(page, ws.owner);
  const id = uniq("express-orders");
  await page.goto(`/mocks/new?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "New mock", level: 1 })).toBeVisible();
  await page.getByLabel("Mock id").fill(id);
  await choose(page, "Method", "POST");
  await page.getByLabel("Route", { exact: true }).fill("/orders");
  await page.getByRole("button", { name: "Add body condition" }).click();
  await page.getByLabel("Body condition 1 path").fill("$.type");
  await expect(page.getByRole("combobox", { name: "Body condition 1 operator" })).toContainText("equals");
  await page.getByLabel("Body condition 1 value").fill("express");
  await page.getByLabel("Response status code").fill("201");
  await fillCode(page, "Response payload", '{"eta": "1 day", "order": "$.req.id"}');
  await screenshot(page, "mock-editor-form");
  await page.getByRole("button", { name: "Save mock" }).click();
  await expect(page.getByText(`Mock “${id}” created`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/mocks/${id}\\?ns=${ws.namespace}`));
  await expect(page.getByRole("heading", { name: id, level: 1 })).toBeVisible();

  // Try it: a matching request gets the mock's answer…
  await page.getByRole("tab", { name: "Try it" }).click();
  await expect(page.getByRole("combobox", { name: "Request method" })).toContainText("POST");
  await expect(page.getByLabel("Request path")).toHaveValue("/orders");
  await fillCode(page, "Request body", '{"type": "express", "id": 7}');
  await page.getByRole("button", { name: "Send request" }).click();
  const response = page.getByRole("region", { name: "Response" });
  await expect(response).toContainText("201");
  await expect(response.getByLabel("Response body")).toHaveText('{"eta":"1 day","order":7}');
  await expect(page.getByRole("region", { name: "Matching" })).toContainText(`Matched mock ${id}`);
  await screenshot(page, "mock-try-it");

  // …and one that fails the condition shows the nearest mock and why.
  await fillCode(page, "Request body", '{"type": "slow"}');
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(response).toContainText("404");
  const matching = page.getByRole("region", { name: "Matching" });
  await expect(matching).toContainText("No mock matched");
  await expect(matching.getByRole("list", { name: "Nearest mocks" })).toContainText(id);
  await expect(matching.getByRole("list", { name: "Nearest mocks" })).toContainText("condition");
  await screenshot(page, "mock-try-it-miss");

  // The JSON tab edits the same mock.
  await page.getByRole("tab", { name: "JSON" }).click();
  await expect(page.getByTestId("code-editor-Mock JSON")).toContainText('"route": "/orders"');
  await fillCode(
    page,
    "Mock JSON",
    JSON.stringify({ http: { route: "/orders", httpMethod: "POST", conditions: [{ path: "$.type", assertAction: "equals", value: "express" }] }, response: { statusCode: 202, payload: { eta: "2 days" } }, statusCod: 1 }),
  );
  await expect(page.getByText(/schema problem/)).toBeVisible();
  await screenshot(page, "mock-json-schema-problem");
  await fillCode(page, "Mock JSON", JSON.stringify({ http: { route: "/orders", httpMethod: "POST", conditions: [{ path: "$.type", assertAction: "equals", value: "express" }] }, response: { statusCode: 202, payload: { eta: "2 days" } } }));
  await expect(page.getByText(/schema problem/)).toBeHidden();
  await page.getByRole("tab", { name: "Form" }).click();
  await expect(page.getByLabel("Response status code")).toHaveValue("202");
  await page.getByRole("button", { name: "Save mock" }).click();
  await expect(page.getByText(`Mock “${id}” saved`)).toBeVisible();
  await expect(page.getByText("version 2")).toBeVisible();

  // History: the two versions side by side, then back to the first.
  await page.getByRole("tab", { name: "History" }).click();
  const versions = page.getByRole("table", { name: "Versions" });
  await expect(versions.getByRole("row")).toHaveCount(3);
  const diff = page.getByRole("region", { name: "Differences between version 1 and version 2" });
  await expect(diff).toContainText("201");
  await expect(diff).toContainText("202");
  await screenshot(page, "mock-history-diff");
  await page.getByRole("button", { name: "Restore version 1" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Restore version" }).click();
  await expect(page.getByText("Restored; the mock is now version 3")).toBeVisible();
  await expect(page.getByRole("table", { name: "Versions" }).getByRole("row")).toHaveCount(4);
  await page.getByRole("tab", { name: "Form" }).click();
  await expect(page.getByLabel("Response status code")).toHaveValue("201");
});

test("saving a duplicate offers overwrite, create new, or open the existing mock", async ({ page }) => {
  const api = await adminApi();
  const route = `/${uniq("dup")}`;
  const existing = await createMock(api, ws.namespace, { id: uniq("existing"), http: { route, httpMethod: "GET" }, response: { statusCode: 200, payload: { v: 1 } } });
  await api.dispose();
  await loginViaUi(page, ws.owner);

  const fillDuplicate = async () => {
    await page.goto(`/mocks/new?ns=${ws.namespace}`);
    await choose(page, "Method", "GET");
    await page.getByLabel("Route", { exact: true }).fill(route);
    await page.getByLabel("Response status code").fill("418");
    await page.getByRole("button", { name: "Save mock" }).click();
    const dialog = page.getByRole("alertdialog", { name: /already exists/ });
    await expect(dialog).toContainText(existing);
    await expect(dialog).toContainText(`GET ${route}`);
    return dialog;
  };

  let dialog = await fillDuplicate();
  await screenshot(page, "mock-duplicate-dialog");
  await dialog.getByRole("button", { name: "Open existing mock" }).click();
  await expect(page.getByRole("heading", { name: existing, level: 1 })).toBeVisible();

  dialog = await fillDuplicate();
  await dialog.getByRole("button", { name: "Overwrite existing" }).click();
  await expect(page.getByText(`Mock “${existing}” saved`)).toBeVisible();
  await expect(page.getByRole("heading", { name: existing, level: 1 })).toBeVisible();
  await expect(page.getByLabel("Response status code")).toHaveValue("418");

  // Now the same mock again, response included: a strict duplicate, kept as a second mock.
  dialog = await fillDuplicate();
  await expect(dialog).toContainText("This mock already exists");
  await dialog.getByRole("button", { name: "Create as new mock" }).click();
  await expect(page.getByText(/Mock “.+” created/)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(existing);
});
