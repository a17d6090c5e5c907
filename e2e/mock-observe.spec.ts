import { expect, test } from "@playwright/test";
import { createMock, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

let ws: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "obs");
  await api.dispose();
});

test("an undefined request becomes a mock through the prefilled editor; ignore and clear the rest", async ({ page, playwright }) => {
  const stub = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
  const path = `/${uniq("missing")}/items`;
  expect((await stub.get(`/stubs/${ws.namespace}${path}?page=1`)).status()).toBe(404);
  expect((await stub.post(`/stubs/${ws.namespace}/other-miss`, { data: { a: 1 } })).status()).toBe(404);
  expect((await stub.delete(`/stubs/${ws.namespace}/third-miss`)).status()).toBe(404);

  await loginViaUi(page, ws.owner);
  await page.goto(`/undefined-requests?ns=${ws.namespace}`);
  const table = page.getByRole("table", { name: "Undefined requests" });
  await expect(table.getByRole("row").filter({ hasText: path })).toBeVisible();
  await page.getByRole("button", { name: "Details of POST /other-miss" }).click();
  await expect(page.getByRole("region", { name: "Request POST /other-miss" })).toContainText('"a": 1');
  await screenshot(page, "undefined-requests");

  await page.getByRole("link", { name: `Create mock from GET ${path}` }).click();
  await expect(page.getByRole("heading", { name: "New mock", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Route", { exact: true })).toHaveValue(path);
  await expect(page.getByRole("combobox", { name: "Method" })).toContainText("GET");
  await page.getByLabel("Response status code").fill("200");
  await page.getByRole("button", { name: "Save mock" }).click();
  await expect(page.getByText(/Mock “.+” created/)).toBeVisible();
  expect((await stub.get(`/stubs/${ws.namespace}${path}`)).status()).toBe(200);

  await page.goto(`/undefined-requests?ns=${ws.namespace}`);
  await expect(table.getByRole("row").filter({ hasText: "/other-miss" })).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: path })).toHaveCount(0);
  await page.getByRole("button", { name: "Ignore DELETE /third-miss" }).click();
  await expect(table.getByRole("row").filter({ hasText: "/third-miss" })).toHaveCount(0);
  await page.getByLabel("Show ignored").check();
  await expect(table.getByRole("row").filter({ hasText: "/third-miss" })).toContainText("ignored");
  await page.getByRole("button", { name: "Clear all" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Clear all" }).click();
  await expect(page.getByText("Every request found its mock")).toBeVisible();
  await stub.dispose();
});

test("the request log updates live without a reload, per namespace and per mock; the dashboard counts the hits", async ({ page, playwright }) => {
  const api = await adminApi();
  const ws = await newWorkspace(api, "live");
  const id = await createMock(api, ws.namespace, { id: uniq("live"), http: { route: "/live/:n", httpMethod: "GET" }, response: { statusCode: 200, payload: { n: "$.pathParam.n" } } });
  await api.dispose();
  const stub = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
  await loginViaUi(page, ws.owner);
  await page.goto(`/logs?ns=${ws.namespace}`);
  await expect(page.getByRole("status").filter({ hasText: "Live: new requests appear as they arrive" })).toBeVisible();

  expect((await stub.get(`/stubs/${ws.namespace}/live/1?x=y`, { headers: { "X-Trace": "abc" } })).status()).toBe(200);
  const log = page.getByRole("table", { name: "Request log" });
  await expect(log.getByRole("row").filter({ hasText: "/live/1" })).toBeVisible();
  expect((await stub.get(`/stubs/${ws.namespace}/live/2`)).status()).toBe(200);
  await expect(log.getByRole("row").filter({ hasText: "/live/2" })).toBeVisible();
  await page.getByRole("button", { name: /^Details of GET \/live\/1/ }).click();
  const detail = page.getByRole("region", { name: /^Request GET \/live\/1/ });
  await expect(detail).toContainText("abc");
  await expect(detail).toContainText('"x"');
  await screenshot(page, "request-log");

  await page.goto(`/mocks/${id}?ns=${ws.namespace}&tab=log`);
  await expect(page.getByRole("status").filter({ hasText: "Live:" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Request log" }).getByRole("row")).toHaveCount(3);
  expect((await stub.get(`/stubs/${ws.namespace}/live/3`)).status()).toBe(200);
  await expect(page.getByRole("table", { name: "Request log" }).getByRole("row").filter({ hasText: "/live/3" })).toBeVisible();

  await page.goto(`/dashboard?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByText("3 stub requests answered in the period")).toBeVisible();
  await expect(page.getByRole("list", { name: "Mocks per protocol" })).toContainText("HTTP");
  await expect(page.getByRole("list", { name: "Recent activity" })).toContainText(id);
  await screenshot(page, "dashboard");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveClass(/dark/);
  await screenshot(page, "dashboard-dark");
  await page.goto(`/mocks/${id}?ns=${ws.namespace}&tab=json`);
  await expect(page.getByTestId("code-editor-Mock JSON")).toContainText('"route"');
  await screenshot(page, "mock-json-dark");
  await stub.dispose();
});
