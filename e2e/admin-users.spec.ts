import { expect, test } from "@playwright/test";
import { admin, screenshot } from "./support/session";
import { adminApi, createUser, loginViaUi, uniq, alertWith } from "./support/ui";

test("admin creates a user who logs in; once disabled their session ends and login fails", async ({ page, browser }) => {
  await loginViaUi(page, admin);
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Administrator" })).toBeVisible();

  const username = uniq("dana");
  const password = "dana-password-1";
  await page.getByRole("button", { name: "Create user" }).click();
  const dialog = page.getByRole("dialog", { name: "Create user" });
  await dialog.getByLabel("Username").fill("admin");
  await dialog.getByLabel("Initial password").fill(password);
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog.getByText("already taken", { exact: true })).toBeVisible();
  await expect(alertWith(dialog, "That username is already taken")).toBeVisible();
  await dialog.getByLabel("Username").fill(username);
  await dialog.getByLabel("Full name").fill("Dana Scully");
  await dialog.getByLabel("E-mail address").fill(`${username}@example.org`);
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByText(`User ${username} created`)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: username });
  await expect(row).toContainText("Dana Scully");
  await expect(row).toContainText("Active");

  await page.getByLabel("Search users").fill(username);
  await expect(page.getByRole("table", { name: "Users" }).getByRole("row")).toHaveCount(2);
  await screenshot(page, "admin-users");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveClass(/dark/);
  await screenshot(page, "admin-users-dark");
  await page.emulateMedia({ colorScheme: "light" });

  // The new user logs in (a browser of their own) and cannot open admin pages.
  const theirs = await browser.newContext();
  const userPage = await theirs.newPage();
  await loginViaUi(userPage, { username, password });
  await userPage.goto("/admin/users");
  await expect(userPage.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
  await expect(userPage.getByRole("link", { name: "Users" })).toHaveCount(0);
  await screenshot(userPage, "admin-forbidden");

  // Disable: confirm, badge, their session ends and their login fails with the API's reason.
  await page.getByRole("button", { name: `Actions for ${username}` }).click();
  await page.getByRole("menuitem", { name: "Disable" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Disable user" }).click();
  await expect(row).toContainText("Disabled");
  await userPage.goto("/settings/profile");
  await expect(userPage).toHaveURL(/\/login\?next=/);
  await userPage.getByLabel("Username", { exact: true }).fill(username);
  await userPage.getByLabel("Password", { exact: true }).fill(password);
  await userPage.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(alertWith(userPage, "Your account is disabled")).toBeVisible();

  // Enable again and set a new password: the new one works.
  await page.getByRole("button", { name: `Actions for ${username}` }).click();
  await page.getByRole("menuitem", { name: "Enable" }).click();
  await expect(row).toContainText("Active");
  await page.getByRole("button", { name: `Actions for ${username}` }).click();
  await page.getByRole("menuitem", { name: "Set password" }).click();
  await page.getByRole("dialog").getByLabel("New password").fill("a-brand-new-password");
  await page.getByRole("dialog").getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText(/Password of .* set/)).toBeVisible();
  await loginViaUi(userPage, { username, password: "a-brand-new-password" });
  await theirs.close();
});

test("admin edits and deletes a user", async ({ page }) => {
  const api = await adminApi();
  const user = await createUser(api, { prefix: "eve" });
  await api.dispose();
  await loginViaUi(page, admin);
  await page.goto("/admin/users");
  await page.getByLabel("Search users").fill(user.username);
  // As a person would: wait for the filtered list (the search is debounced) before opening a row's menu.
  await expect(page.getByRole("table", { name: "Users" }).getByRole("row")).toHaveCount(2);
  const row = page.getByRole("row").filter({ hasText: user.username });

  await page.getByRole("button", { name: `Actions for ${user.username}` }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const dialog = page.getByRole("dialog", { name: `Edit ${user.username}` });
  await dialog.getByLabel("Full name").fill("Eve Moneypenny");
  await dialog.getByLabel("Role").click();
  await page.getByRole("option", { name: "Administrator" }).click();
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(row).toContainText("Eve Moneypenny");
  await expect(row).toContainText("Admin");

  await page.getByRole("button", { name: `Actions for ${user.username}` }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete user" }).click();
  await expect(page.getByText(`${user.username} deleted`)).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(page.getByText("No users match")).toBeVisible();
});
