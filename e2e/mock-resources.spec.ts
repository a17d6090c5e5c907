import { expect, test } from "@playwright/test";
import { createMock, choose, newWorkspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, createUser, loginViaUi, uniq } from "./support/ui";

test("stores: set, edit and delete global and chain values", async ({ page }) => {
  const api = await adminApi();
  const ws = await newWorkspace(api, "store");
  await api.dispose();
  await loginViaUi(page, ws.owner);
  await page.goto(`/stores?ns=${ws.namespace}`);
  await expect(page.getByText("Nothing in the global store yet")).toBeVisible();
  await page.getByLabel("Key", { exact: true }).fill("greeting");
  await page.getByLabel("Value", { exact: true }).fill("hello");
  await page.getByRole("button", { name: "Set value" }).click();
  const table = page.getByRole("table", { name: "Values in the global store" });
  await expect(table.getByRole("row").filter({ hasText: "greeting" })).toContainText('"hello"');
  await page.getByRole("button", { name: "Edit greeting" }).click();
  await page.getByLabel("Value", { exact: true }).fill('{"n": 42}');
  await page.getByRole("button", { name: "Save value" }).click();
  await expect(table.getByRole("row").filter({ hasText: "greeting" })).toContainText('{"n":42}');
  await screenshot(page, "stores");
  await page.getByRole("button", { name: "Delete greeting" }).click();
  await expect(page.getByText("Nothing in the global store yet")).toBeVisible();

  await page.getByLabel("Open chain by id").fill("checkout");
  await page.getByRole("button", { name: "Open chain" }).click();
  await page.getByLabel("Key", { exact: true }).fill("step");
  await page.getByLabel("Value", { exact: true }).fill("2");
  await page.getByRole("button", { name: "Set value" }).click();
  await expect(page.getByRole("table", { name: "Values in chain “checkout”" })).toContainText("step");
  await page.reload();
  await choose(page, "Store", "Chain checkout");
  await expect(page.getByRole("table", { name: "Values in chain “checkout”" })).toContainText("2");
});

test("templates and temporary files: upload, list, download, delete", async ({ page }) => {
  const api = await adminApi();
  const ws = await newWorkspace(api, "files");
  await api.dispose();
  await loginViaUi(page, ws.owner);
  await page.goto(`/templates?ns=${ws.namespace}`);
  await expect(page.getByText("No template files yet")).toBeVisible();
  await page.getByLabel("Upload template").setInputFiles({ name: "order.json", mimeType: "application/json", buffer: Buffer.from('{"id": "$.req.id"}') });
  await expect(page.getByText("Uploaded “order.json”")).toBeVisible();
  await expect(page.getByRole("table", { name: "Template files" })).toContainText("order.json");
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download order.json" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("order.json");

  await page.getByLabel("Upload temporary file").setInputFiles({ name: "import data.csv", mimeType: "text/csv", buffer: Buffer.from("a,b\n1,2\n") });
  await expect(page.getByRole("table", { name: "Temporary files" })).toContainText("import data.csv");
  const tempDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download import data.csv" }).click();
  expect((await tempDownload).suggestedFilename()).toBe("import data.csv");
  await screenshot(page, "templates");

  await page.getByRole("button", { name: "Delete order.json" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete template" }).click();
  await expect(page.getByText("No template files yet")).toBeVisible();
  await page.getByRole("button", { name: "Delete import data.csv" }).click();
  await expect(page.getByText("No temporary files")).toBeVisible();
});

test("namespace page: owners manage members and roles, and copy mocks to another namespace", async ({ page }) => {
  const api = await adminApi();
  const ws = await newWorkspace(api, "team");
  const target = await newWorkspace(api, "target");
  const res = await api.post(`/api/v1/admin/namespaces/${target.namespace}/users`, { data: { username: ws.owner.username, role: "editor" } });
  expect(res.status(), await res.text()).toBe(201);
  const colleague = await createUser(api, { prefix: "colleague" });
  const mockId = await createMock(api, ws.namespace, { id: uniq("copied"), http: { route: "/copy-me" } });
  await loginViaUi(page, ws.owner);
  await page.goto(`/namespaces?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "Namespace settings", level: 1 })).toBeVisible();
  const members = page.getByRole("table", { name: "Members" });
  await expect(members).toContainText(ws.owner.username);
  await page.getByLabel("Username").fill(colleague.username);
  await choose(page, "Role", "Viewer");
  await page.getByRole("button", { name: "Add member" }).click();
  await expect(page.getByText(`${colleague.username} added as viewer`)).toBeVisible();
  await choose(page, `Role of ${colleague.username}`, "Editor");
  await expect(page.getByText(`${colleague.username} is now editor`)).toBeVisible();
  await screenshot(page, "namespace");
  await page.getByRole("button", { name: `Remove ${colleague.username}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove member" }).click();
  await expect(members.getByRole("row").filter({ hasText: colleague.username })).toHaveCount(0);

  await choose(page, "Target namespace", target.namespace);
  await page.getByRole("button", { name: "Copy all mocks" }).click();
  await expect(page.getByText(`1 mock copied to ${target.namespace}`)).toBeVisible();
  expect((await api.get(`/api/v1/mocks/${mockId}?namespace=${target.namespace}`)).status()).toBe(200);
  await api.dispose();
});
