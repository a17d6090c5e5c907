// The console's lists tell things apart and show what happened: the request
// log to the millisecond with unmatched calls, filter, pause and response
// headers; the mock list with conditions and priority, no overflow at 1440 px;
// the editor's Save reachable on a phone; `$.fake.` completions in the payload.
import { expect, test } from "@playwright/test";
import { createMock, fillCode, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

let ws: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "lists");
  await api.dispose();
});

const stub = (path: string) => fetch(`${process.env.E2E_BASE_URL}/stubs/${ws.namespace}${path}`);

test("request log: milliseconds, unmatched requests marked, filter, pause, response headers", async ({ page }) => {
  const api = await adminApi();
  const id = await createMock(api, ws.namespace, { id: uniq("logged"), http: { route: "/log/:n", httpMethod: "GET" }, response: { statusCode: 200, headers: { "X-Answer": "yes" }, payload: { n: "$.pathParam.n" } } });
  expect((await stub("/log/1")).status).toBe(200);
  expect((await stub("/log/2")).status).toBe(200);
  expect((await stub("/nobody-home")).status).toBe(404);
  // The recorder writes in batches: wait until both kinds are stored before the page reads them.
  await expect.poll(async () => (await (await api.get(`/api/v1/mocks/${id}/logs?namespace=${ws.namespace}`)).json()).requests?.length ?? 0).toBe(2);
  await expect.poll(async () => (await (await api.get(`/api/v1/undefined-requests?namespace=${ws.namespace}`)).json()).total ?? 0).toBe(1);
  await api.dispose();
  await loginViaUi(page, ws.owner);
  await page.goto(`/logs?ns=${ws.namespace}`);
  const table = page.getByRole("table", { name: "Request log" });
  await expect(table.getByRole("row")).toHaveCount(4);
  await expect(table.getByRole("row").nth(1).getByRole("cell").nth(1)).toHaveText(/\d{2}:\d{2}:\d{2}\.\d{3}/);
  await expect(table.getByRole("row").filter({ hasText: "/nobody-home" })).toContainText("No mock matched");
  await screenshot(page, "request-log");

  await page.getByRole("combobox", { name: "Show requests" }).click();
  await page.getByRole("option", { name: "No mock matched" }).click();
  await expect(table.getByRole("row")).toHaveCount(2);
  await page.getByRole("combobox", { name: "Show requests" }).click();
  await page.getByRole("option", { name: "All requests" }).click();
  await page.getByLabel("Filter requests").fill("log/2");
  await expect(table.getByRole("row")).toHaveCount(2);
  await page.getByRole("button", { name: "Details of GET /log/2" }).click();
  const details = page.getByRole("region", { name: "Request GET /log/2" });
  await expect(details).toContainText("Response headers");
  await expect(details).toContainText("X-Answer");
  await expect(details).toContainText('"n": "2"');
  await page.getByRole("button", { name: "Details of GET /log/2" }).click();
  await expect(details).toBeHidden();
  await page.getByLabel("Filter requests").fill("");

  await page.getByRole("button", { name: "Pause" }).click();
  expect((await stub("/log/3")).status).toBe(200);
  await expect(page.getByRole("status").filter({ hasText: "Paused" })).toContainText("1 new request waiting");
  await expect(table.getByRole("row")).toHaveCount(4);
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(table.getByRole("row")).toHaveCount(5);
  await expect(table).toContainText(id);
});

test("mock list: two mocks on one route differ by conditions and priority; nothing overflows at 1440 px", async ({ page }) => {
  const api = await adminApi();
  const route = `/${uniq("same")}/a-rather-long-route/with/many/segments/:id/and/more/segments/to/overflow`;
  await createMock(api, ws.namespace, { id: uniq("express-orders-with-a-long-identifier"), priority: 5, tags: ["orders", "express", "a-very-long-tag-name"], http: { route, httpMethod: "POST", conditions: [{ path: "$.type", assertAction: "equals", value: "express" }] } });
  await createMock(api, ws.namespace, { id: uniq("other-orders"), http: { route, httpMethod: "POST", header: [{ path: "X-Tenant", assertAction: "notEmpty" }] } });
  await api.dispose();
  await page.setViewportSize({ width: 1440, height: 900 });
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks?ns=${ws.namespace}`);
  const table = page.getByRole("table", { name: "Mocks" });
  await expect(table.getByRole("row").filter({ hasText: "express-orders" })).toContainText("body $.type equals express");
  await expect(table.getByRole("row").filter({ hasText: "other-orders" })).toContainText("header X-Tenant is not empty");
  await expect(table.getByRole("columnheader", { name: "Priority" })).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: "express-orders" }).getByRole("cell").nth(4)).toHaveText("5");
  const overflow = await table.evaluate((t) => ({ table: t.scrollWidth, box: t.parentElement!.clientWidth, page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  expect(overflow.table).toBeLessThanOrEqual(overflow.box);
  expect(overflow.page).toBeLessThanOrEqual(overflow.viewport);
  await screenshot(page, "mock-list-1440");
});

test("on a phone the editor's Save stays on screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks/new?ns=${ws.namespace}`);
  await page.getByRole("region", { name: "Matching and limits" }).scrollIntoViewIfNeeded();
  const save = page.getByRole("button", { name: "Save mock" });
  await expect(save).toBeInViewport();
  await screenshot(page, "mock-editor-phone");
});

test("typing $.fake. in the payload offers the generators, unclipped on the first line", async ({ page }) => {
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks/new?ns=${ws.namespace}`);
  await fillCode(page, "Response payload", '"$.fake"');
  // Into the string, after "fake": the dot is the completion's trigger character.
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.type(".");
  const suggest = page.locator(".suggest-widget.visible");
  await expect(suggest).toContainText("$.fake");
  // As a person types: each key after the list has come back.
  await page.keyboard.type("Em", { delay: 150 });
  await expect(suggest).toContainText("Email");
  await expect(suggest).not.toContainText("generated data");
  // On the first line the box is drawn above the editor, outside the box that used to clip it.
  const box = await suggest.boundingBox();
  const editor = await page.getByTestId("code-editor-Response payload").boundingBox();
  expect(box!.y).toBeLessThan(editor!.y);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  await screenshot(page, "payload-fake-completion");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("code-editor-Response payload").locator(".view-lines")).toContainText('"$.fake.Email"');
});
