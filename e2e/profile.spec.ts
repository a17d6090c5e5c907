import { expect, test } from "@playwright/test";
import { screenshot } from "./support/session";
import { adminApi, createUser, loginViaUi, logoutViaUi, type TestUser, alertWith } from "./support/ui";

let user: TestUser;

test.beforeAll(async () => {
  const api = await adminApi();
  user = await createUser(api, { prefix: "pat" });
  await api.dispose();
});

test("the profile shows the account and saves the full name and e-mail", async ({ page }) => {
  await loginViaUi(page, user);
  await page.goto("/settings/profile");
  await expect(page.getByText(user.username, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Save profile" })).toBeDisabled();

  await page.getByLabel("Full name").fill("Pat Example");
  await page.getByLabel("E-mail address").fill("not-an-address");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Enter a valid e-mail address")).toBeVisible();

  await page.getByLabel("E-mail address").fill(`${user.username}@example.org`);
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText(/Profile saved/)).toBeVisible();
  await expect(page.getByText("Not verified")).toBeVisible();
  await screenshot(page, "profile");

  // E-mail is not set up on this server: the API's message is shown, not a generic failure.
  await page.getByRole("button", { name: "Resend verification e-mail" }).click();
  await expect(page.getByText(/E-mail is not configured/)).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("Full name")).toHaveValue("Pat Example");
  await expect(page.getByLabel("E-mail address")).toHaveValue(`${user.username}@example.org`);

  // Dark mode from the user menu, kept across reloads.
  await page.getByRole("button", { name: `User menu for ${user.username}` }).click();
  await page.getByRole("menuitemradio", { name: "Dark" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect(page.getByLabel("Full name")).toHaveValue("Pat Example");
  await screenshot(page, "profile-dark");
});

test("changing the password shows field errors, then works with the new password only", async ({ page, playwright }) => {
  await loginViaUi(page, user);
  await page.goto("/settings/profile");
  const newPassword = `${user.password}-new`;

  await page.getByLabel("Current password").fill("wrong-password");
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Repeat the new password").fill(`${newPassword}x`);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("The passwords do not match")).toBeVisible();

  await page.getByLabel("Repeat the new password").fill(newPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(alertWith(page, "Current password is wrong")).toBeVisible();
  await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("at least 8 characters")).toBeVisible();

  await page.getByLabel("Current password").fill(user.password);
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Repeat the new password").fill(newPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText(/Password changed/)).toBeVisible();
  await expect(page.getByLabel("Current password")).toHaveValue("");

  await logoutViaUi(page);
  const api = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
  expect((await api.post("/api/v1/auth/login", { data: { username: user.username, password: user.password } })).status()).toBe(401);
  expect((await api.post("/api/v1/auth/login", { data: { username: user.username, password: newPassword } })).status()).toBe(200);
  await api.dispose();
  user.password = newPassword;
});
