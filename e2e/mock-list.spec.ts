import { expect, test } from "@playwright/test";
import { choose, createMock, newWorkspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

test("an empty namespace teaches, and creates an example mock in one click", async ({ page }) => {
  const api = await adminApi();
  const ws = await newWorkspace(api, "empty");
  await api.dispose();
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks?ns=${ws.namespace}`);
  await expect(page.getByText("No mocks in this namespace yet")).toBeVisible();
  await screenshot(page, "mocks-empty");
  await page.getByRole("button", { name: "Create an example mock" }).click();
  await expect(page.getByText("Example mock created")).toBeVisible();
  await expect(page).toHaveURL(/\/mocks\/[0-9a-f-]{36}\?ns=/);
  await expect(page.getByLabel("Route", { exact: true })).toHaveValue("/users/:id");
  await page.goto(`/mocks?ns=${ws.namespace}`);
  await expect(page.getByRole("table", { name: "Mocks" }).getByRole("row")).toHaveCount(2);
});

test("search, batch tag, delete to the recycle bin and restore; keyboard shortcuts", async ({ page }) => {
  const api = await adminApi();
  const ws = await newWorkspace(api, "list");
  const base = uniq("pay");
  const ids = [];
  for (const [i, route] of ["/pay/a", "/pay/b", "/other"].entries()) ids.push(await createMock(api, ws.namespace, { id: `${base}-${i}`, http: { route, httpMethod: "GET" }, tags: ["seed"] }));
  await api.dispose();
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks?ns=${ws.namespace}`);
  const table = page.getByRole("table", { name: "Mocks" });
  await expect(table.getByRole("row")).toHaveCount(4);

  await page.getByRole("heading", { name: "Mocks", level: 1 }).click();
  await page.keyboard.press("/");
  await expect(page.getByLabel("Search mocks")).toBeFocused();
  await page.keyboard.type("/pay");
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(page).toHaveURL(/q=%2Fpay/);
  await screenshot(page, "mocks-search");

  await page.getByRole("checkbox", { name: "Select all on this page" }).click();
  await expect(page.getByRole("toolbar", { name: "Selected mocks" })).toContainText("2 selected");
  await page.getByRole("button", { name: "Tag…" }).click();
  await page.getByRole("dialog").getByLabel("Add tags").fill("checkout, v2");
  await page.getByRole("dialog").getByLabel("Remove tags").fill("seed");
  await page.getByRole("button", { name: "Apply tags" }).click();
  await expect(page.getByText("Tags updated on 2 mocks")).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: ids[0]! })).toContainText("checkout");
  await expect(table.getByRole("row").filter({ hasText: ids[0]! })).not.toContainText("seed");

  await page.getByLabel("Search mocks").fill("");
  // The tag list refetches after the change; a click while it re-renders can miss, so choose until the picker shows it.
  await expect(async () => {
    await choose(page, "Tag", /^checkout/);
    await expect(page.getByRole("combobox", { name: "Tag", exact: true })).toContainText("checkout", { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(table.getByRole("row")).toHaveCount(3);
  await choose(page, "Tag", "All tags");
  await expect(table.getByRole("row")).toHaveCount(4);

  await page.getByRole("checkbox", { name: `Select ${ids[1]}` }).click();
  await page.getByRole("checkbox", { name: `Select ${ids[2]}` }).click();
  await page.getByRole("toolbar", { name: "Selected mocks" }).getByRole("button", { name: "Delete" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Move to recycle bin" }).click();
  await expect(page.getByText("2 moved to the recycle bin")).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(2);

  await page.getByRole("tab", { name: "Recycle bin" }).click();
  await expect(page).toHaveURL(/view=bin/);
  await expect(table.getByRole("row")).toHaveCount(3);
  await screenshot(page, "mocks-recycle-bin");
  await page.getByRole("checkbox", { name: `Select ${ids[2]}` }).click();
  await page.getByRole("toolbar", { name: "Selected mocks" }).getByRole("button", { name: "Restore" }).click();
  await expect(page.getByText("1 restored")).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(2);
  await page.getByRole("tab", { name: "Active" }).click();
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table).toContainText(ids[2]!);

  // Arrows walk the rows, Enter opens one; n starts a new mock.
  await page.getByRole("heading", { name: "Mocks", level: 1 }).click();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  const second = await page.evaluate(() => document.activeElement?.getAttribute("data-mock-row"));
  expect(second).toBeTruthy();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: second!, level: 1 })).toBeVisible();
  await page.goto(`/mocks?ns=${ws.namespace}`);
  await expect(table.getByRole("row")).toHaveCount(3);
  await page.getByRole("heading", { name: "Mocks", level: 1 }).click();
  await page.keyboard.press("n");
  await expect(page.getByRole("heading", { name: "New mock", level: 1 })).toBeVisible();
});

test("folders: create one and drag mocks onto it", async ({ page }) => {
  const api = await adminApi();
  const ws = await newWorkspace(api, "fold");
  const a = await createMock(api, ws.namespace, { id: uniq("drag-a"), http: { route: "/a" } });
  const b = await createMock(api, ws.namespace, { id: uniq("drag-b"), http: { route: "/b" } });
  await api.dispose();
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks?ns=${ws.namespace}`);
  const folders = page.getByRole("navigation", { name: "Folders" });
  await folders.getByRole("button", { name: "New folder" }).click();
  await page.getByRole("dialog").getByLabel("Folder name").fill("Payments");
  await page.getByRole("button", { name: "Create folder" }).click();
  await expect(page.getByText("Folder “Payments” created")).toBeVisible();

  const table = page.getByRole("table", { name: "Mocks" });
  await table.getByRole("row").filter({ hasText: a }).dragTo(folders.getByRole("button", { name: /^Payments/ }));
  await expect(page.getByText("1 moved")).toBeVisible();
  await expect(folders.getByRole("button", { name: /^Payments/ })).toContainText("1");
  await folders.getByRole("button", { name: /^Payments/ }).click();
  await expect(page).toHaveURL(/folder=/);
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText(a);
  await folders.getByRole("button", { name: "Top level" }).click();
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText(b);
  await screenshot(page, "mocks-folders");
});

test("folders: rename with F2 or the pencil; Enter saves, Escape cancels, a duplicate name is refused", async ({ page }) => {
  const api = await adminApi();
  const ws = await newWorkspace(api, "rename");
  const ids = new Map<string, string>();
  for (const name of ["Orders", "Refunds"]) {
    const res = await api.post(`/api/v1/mock-folders?namespace=${ws.namespace}`, { data: { name } });
    expect(res.status(), await res.text()).toBe(201);
    ids.set(name, (await res.json()).id);
  }
  await createMock(api, ws.namespace, { id: uniq("in-orders"), folderId: ids.get("Orders"), http: { route: "/orders" } });
  await api.dispose();
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks?ns=${ws.namespace}`);
  const folders = page.getByRole("navigation", { name: "Folders" });
  const orders = folders.getByRole("button", { name: /^Orders/ });
  await expect(orders).toContainText("1");

  // F2 on a focused folder opens the rename dialog with the name selected; Escape cancels.
  await orders.focus();
  await page.keyboard.press("F2");
  const dialog = page.getByRole("dialog", { name: "Rename folder “Orders”" });
  const name = dialog.getByLabel("Folder name");
  await expect(name).toBeFocused();
  await expect(name).toHaveValue("Orders");
  await page.keyboard.type("Ignored");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(orders).toBeVisible();

  // A sibling's name is refused with the API's message, and the dialog stays open.
  await orders.focus();
  await page.keyboard.press("F2");
  await page.keyboard.type("refunds");
  await page.keyboard.press("Enter");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("A folder named 'refunds' already exists here");
  await screenshot(page, "mocks-folder-rename-conflict");

  // Enter saves a free name; the folder keeps its mocks.
  await name.fill("Orders v2");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Folder renamed to “Orders v2”")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(folders.getByRole("button", { name: /^Orders v2/ })).toContainText("1");

  // The pencil button does the same.
  await folders.getByRole("button", { name: /^Refunds/ }).hover();
  await folders.getByRole("button", { name: "Rename folder Refunds" }).click();
  await page.getByRole("dialog").getByLabel("Folder name").fill("Returns");
  await page.getByRole("dialog").getByRole("button", { name: "Rename folder" }).click();
  await expect(folders.getByRole("button", { name: /^Returns/ })).toBeVisible();
  await expect(folders.getByRole("button", { name: /^Refunds/ })).toHaveCount(0);
});
