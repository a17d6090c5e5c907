import { expect, test } from "@playwright/test";
import { admin, screenshot } from "./support/session";
import { adminApi, createUser, loginViaUi, uniq, alertWith } from "./support/ui";

test("create a namespace, add a member, change their role, remove them; delete and restore", async ({ page }) => {
  const api = await adminApi();
  const member = await createUser(api, { prefix: "erin" });
  await loginViaUi(page, admin);
  await page.goto("/admin/namespaces");
  await expect(page.getByRole("heading", { name: "Namespaces", level: 1 })).toBeVisible();

  const name = uniq("team");
  await page.getByRole("button", { name: "Create namespace" }).click();
  const dialog = page.getByRole("dialog", { name: "Create namespace" });
  await dialog.getByLabel("Name", { exact: true }).fill("Not Valid");
  await dialog.getByRole("button", { name: "Create namespace" }).click();
  await expect(dialog.getByText(/lowercase letters, digits/).last()).toBeVisible();
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByLabel("Description").fill("Payments team mocks");
  await dialog.getByRole("button", { name: "Create namespace" }).click();
  await expect(page.getByText(`Namespace ${name} created`)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Payments team mocks");
  await expect(row).toContainText("admin");
  await expect(row.getByRole("cell").nth(2)).toHaveText("1");
  await screenshot(page, "admin-namespaces");

  await page.getByRole("button", { name: `Members of ${name}` }).click();
  const panel = page.getByRole("dialog", { name: `Members of ${name}` });
  await panel.getByLabel("Username").fill("nobody-by-this-name");
  await panel.getByRole("button", { name: "Add member" }).click();
  await expect(alertWith(panel, "User not found")).toBeVisible();
  await panel.getByLabel("Username").fill(member.username);
  await panel.getByLabel("Role", { exact: true }).click();
  await page.getByRole("option", { name: "Viewer" }).click();
  await panel.getByRole("button", { name: "Add member" }).click();
  const memberRow = panel.getByRole("row").filter({ hasText: member.username });
  await expect(memberRow.getByRole("combobox", { name: `Role of ${member.username}` })).toHaveText("Viewer");
  await screenshot(page, "admin-namespace-members");

  await memberRow.getByRole("combobox", { name: `Role of ${member.username}` }).click();
  await page.getByRole("option", { name: "Editor" }).click();
  await expect(page.getByText(`${member.username} is now editor`)).toBeVisible();
  const members = await (await api.get(`/api/v1/admin/namespaces/${name}/users`)).json();
  expect(members.users.find((u: { username: string }) => u.username === member.username)?.role).toBe("editor");

  await panel.getByRole("button", { name: `Remove ${member.username}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove member" }).click();
  await expect(memberRow).toHaveCount(0);
  // Escape goes to the topmost layer: wait until the confirmation has fully closed.
  await expect(page.getByRole("alertdialog")).toBeHidden();
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();

  await page.getByRole("button", { name: `Delete ${name}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete namespace" }).click();
  await expect(row).toHaveCount(0);
  await page.getByLabel("Show deleted").check();
  await expect(row).toContainText("Deleted");
  await page.getByRole("button", { name: `Restore ${name}` }).click();
  await expect(row).toContainText("Active");
  await api.dispose();
});

test("the namespace switcher lists the user's namespaces and keeps the choice in ?ns= and across visits", async ({ page }) => {
  const api = await adminApi();
  const name = uniq("switch");
  expect((await api.post("/api/v1/namespaces", { data: { name } })).status()).toBe(201);
  await api.dispose();
  await loginViaUi(page, admin);
  await page.goto("/settings/profile");
  await page.getByRole("button", { name: /Switch namespace$/ }).click();
  await page.getByRole("menuitemradio", { name: new RegExp(name) }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]ns=${name}`));
  await expect(page.getByRole("button", { name: `Namespace: ${name}. Switch namespace` })).toBeVisible();
  // Links keep it; a visit without the parameter gets it back from localStorage.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API tokens" }).click();
  await expect(page).toHaveURL(new RegExp(`/settings/tokens\\?ns=${name}`));
  await page.goto("/settings/profile");
  await expect(page.getByRole("button", { name: `Namespace: ${name}. Switch namespace` })).toBeVisible();
});
