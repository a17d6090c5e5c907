// The API tester's import wizard in Chromium: a document that is not a
// Postman collection says where it is wrong; a real Postman export (Newman's
// inherited-entities fixture) uploaded as a file previews as a tree of its
// folders and requests with the unsupported digest auth as warnings, nothing
// saved yet; Import creates it and "Open the collection" shows it in the
// workspace's tree.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, alertWith, loginViaUi } from "./support/ui";

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../server/tester/import/__fixtures__/newman/inherited-entities.postman_collection.json");
let ws: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "tester-import");
  await api.dispose();
});

test("import a Postman collection: a bad document names the place, a file previews as a tree with warnings, Import creates it and it opens", async ({ page }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await loginViaUi(page, ws.owner);
  await page.goto(`/tester?ns=${ws.namespace}`);
  // The workspace's own Import button (the console's nav has an "Import" for mocks too).
  await page.locator('a[href*="/tester/import"]').click();
  await expect(page).toHaveURL(/\/tester\/import/);
  await expect(page.getByRole("heading", { name: "Import into the API tester", level: 1 })).toBeVisible();
  for (const label of ["Postman collection", "Postman environment", "OpenAPI", "WSDL", "gRPC", "GraphQL schema", "MCP server tools", "HAR", "SoapUI project", "JMeter plan", "Native collection"]) {
    await expect(page.getByRole("radio", { name: new RegExp(label) })).toBeVisible();
  }

  await page.getByRole("radio", { name: /Postman collection/ }).check();
  await page.getByRole("textbox", { name: "Document", exact: true }).fill('{"info": {"name": "x"}}');
  await page.getByRole("button", { name: "Preview", exact: true }).click();
  await expect(alertWith(page, /not a Postman collection/)).toBeVisible();
  await expect(page.getByRole("list", { name: "Where the document is wrong" })).toContainText("item");

  await page.getByTestId("import-file").setInputFiles(FIXTURE);
  await expect(page.getByText("inherited-entities.postman_collection.json")).toBeVisible();
  await page.getByRole("button", { name: "Preview", exact: true }).click();
  const tree = page.getByRole("tree", { name: "Collection preview" });
  await expect(tree).toBeVisible();
  await expect(tree.getByRole("treeitem", { name: "Folder Collection level stuff" })).toBeVisible();
  await expect(tree.getByRole("treeitem", { name: "Folder Folder level stuff" })).toBeVisible();
  await expect(tree.getByRole("treeitem", { name: "Request Auth override" })).toBeVisible();
  await expect(page.getByTestId("import-counts")).toContainText("3 folders, 8 requests, 3 variables");
  await expect(page.getByTestId("import-warnings")).toContainText("digest auth is not supported");
  await screenshot(page, "tester-import-preview");

  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByText("Imported", { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.getByRole("link", { name: "Open the collection" }).click();
  await expect(page).toHaveURL(/\/tester\?/);
  await expect(page.getByRole("tree", { name: "Collections" }).getByText("Inherited Entities")).toBeVisible({ timeout: 30_000 });
  expect(errors).toEqual([]);
});
