// The API tester in the browser, against our own mocks: build a collection of
// three requests in the workspace, each with a test script from the snippet
// list, send them (Ctrl+Enter) and read the response and its tests, save them;
// hand a response to the mock editor; run the collection in the runner, see
// the live results and download the JUnit report.
import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { createMock, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi } from "./support/ui";

let ws: Workspace;
const ROUTES = ["one", "two", "three"];

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "tester");
  for (const r of ROUTES) await createMock(api, ws.namespace, { http: { route: `/shop/${r}`, httpMethod: "GET" }, response: { statusCode: 200, payload: { item: r } } });
  await api.dispose();
});

const stubUrl = (route: string) => `${process.env.E2E_BASE_URL}/stubs/${ws.namespace}/shop/${route}`;

/** Adds a request to the collection from the tree's menu and waits for its own tab (the previous tab's URL box is visible until then). */
async function newRequestIn(page: Page, collection: string, openBefore: number) {
  await page.getByRole("button", { name: `Actions for ${collection}` }).click();
  await page.getByRole("menuitem", { name: "New request" }).click();
  await expect(page.getByRole("tab", { name: /New request/ })).toHaveCount(openBefore + 1);
  await expect(page.getByRole("textbox", { name: "Request URL" })).toHaveValue("");
}

test("a collection of three requests built in the workspace, each sent with its test, saved, and run in the runner with a JUnit export", async ({ page }) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await loginViaUi(page, ws.owner);
  await page.goto(`/tester?ns=${ws.namespace}`);
  await expect(page.getByText("Open a request from a collection, or start a new one.")).toBeVisible();
  await screenshot(page, "tester-empty");

  await page.getByRole("button", { name: "New collection" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New collection" });
  await dialog.getByLabel("Name").fill("Shop");
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("tree", { name: "Collections" }).getByText("Shop")).toBeVisible();

  for (const [i, route] of ROUTES.entries()) {
    await newRequestIn(page, "Shop", i);
    const url = page.getByRole("textbox", { name: "Request URL" });
    await url.fill(stubUrl(route));
    await page.getByRole("tab", { name: /^Scripts/ }).click();
    await page.getByRole("tab", { name: /^Tests/ }).click();
    await page.getByRole("button", { name: "Status code is 200" }).click();
    await expect(url).toHaveValue(stubUrl(route));
    // The first one by the keyboard (Ctrl+Enter sends from anywhere in the editor), the others with the button.
    if (route === ROUTES[0]) await url.press("ControlOrMeta+Enter");
    else await page.getByRole("button", { name: "Send", exact: true }).click();
    const response = page.getByRole("region", { name: "Response" });
    await expect(response.getByTitle("Status")).toContainText("200", { timeout: 30_000 });
    await response.getByRole("tab", { name: /^Test results/ }).click();
    await expect(response.getByText("Status code is 200")).toBeVisible();
    await expect(response.getByRole("tab", { name: /^Test results/ })).toContainText("(1/1)");
    await page.keyboard.press("ControlOrMeta+s");
    await expect(page.getByText("Saved “New request”").first()).toBeVisible();
  }
  await screenshot(page, "tester-workspace");

  // The last response becomes a mock: the editor opens prefilled with its route.
  await page.getByRole("button", { name: /Save as mock/ }).click();
  await expect(page).toHaveURL(/\/mocks\/new\?.*draft=/);
  await expect(page.getByText("/shop/three").first()).toBeVisible({ timeout: 30_000 });

  // The runner: every request with its test, live, then the JUnit report.
  await page.goto(`/tester?ns=${ws.namespace}`);
  await page.getByRole("button", { name: "Actions for Shop" }).click();
  await page.getByRole("menuitem", { name: "Run collection" }).click();
  await expect(page).toHaveURL(/\/tester\/runner\?.*collection=/);
  await page.getByRole("button", { name: /^Run/ }).first().click();
  await expect(page.getByText("passed").first()).toBeVisible({ timeout: 60_000 });
  for (const route of ROUTES) await expect(page.getByText(stubUrl(route)).first()).toBeVisible();
  await screenshot(page, "tester-runner");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: /JUnit/ }).first().click();
  const junit = readFileSync(await (await download).path(), "utf8");
  expect(junit).toContain("<testsuites");
  expect((junit.match(/<testcase /g) ?? []).length).toBe(3);
  expect(junit).not.toContain("<failure");
  expect(errors).toEqual([]);
});
