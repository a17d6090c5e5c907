import { expect, test } from "@playwright/test";
import { screenshot } from "./support/session";
import { adminApi, createUser, loginViaUi, type TestUser, uniq } from "./support/ui";

let user: TestUser;

test.beforeAll(async () => {
  const api = await adminApi();
  user = await createUser(api, { prefix: "tok", namespaces: [{ name: "sandbox", role: "editor" }] });
  await api.dispose();
});

test.beforeEach(async ({ context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
});

async function meWith(playwright: import("@playwright/test").PlaywrightWorkerArgs["playwright"], secret: string) {
  const api = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
  const status = (await api.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${secret}` } })).status();
  await api.dispose();
  return status;
}

test("create a token, see the secret once, copy it, rename and revoke it; then it gets 401", async ({ page, playwright }) => {
  await loginViaUi(page, user);
  await page.goto("/settings/tokens");
  await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
  await expect(page.getByText("No API tokens yet")).toBeVisible();
  await screenshot(page, "tokens-empty");

  const name = uniq("ci pipeline");
  await page.getByRole("button", { name: "Create token" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API token" });
  await dialog.getByRole("button", { name: "Create token" }).click();
  await expect(dialog.getByText("Required")).toBeVisible();
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByRole("checkbox", { name: /^delete/ }).click();
  await dialog.getByLabel("Expires after").click();
  await page.getByRole("option", { name: "30 days" }).click();
  await dialog.getByLabel("Namespace").click();
  await page.getByRole("option", { name: "Only sandbox" }).click();
  await dialog.getByRole("button", { name: "Create token" }).click();

  const reveal = page.getByRole("dialog", { name: "Your new API token" });
  await expect(reveal.getByText("This is the only time the secret is shown")).toBeVisible();
  const secret = await reveal.getByLabel("Secret").inputValue();
  expect(secret).toMatch(/^pmk_[A-Za-z0-9]{40}$/);
  await reveal.getByRole("button", { name: "Copy" }).click();
  await expect(reveal.getByRole("button", { name: "Copied", exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await screenshot(page, "tokens-secret");
  await reveal.getByRole("button", { name: "I have copied it" }).click();
  await expect(reveal).toBeHidden();

  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Active");
  await expect(row).toContainText("sandbox");
  await expect(row).toContainText("read");
  await expect(row).toContainText("write");
  await expect(row).toContainText("delete");
  await expect(page.getByText(secret)).toHaveCount(0);
  expect(await meWith(playwright, secret)).toBe(200);
  await screenshot(page, "tokens");

  const renamed = `${name} renamed`;
  await page.getByRole("button", { name: `Rename ${name}` }).click();
  await page.getByRole("dialog", { name: "Rename token" }).getByLabel("Name", { exact: true }).fill(renamed);
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("row").filter({ hasText: renamed })).toBeVisible();

  await page.getByRole("button", { name: `Revoke ${renamed}` }).click();
  const confirm = page.getByRole("alertdialog", { name: `Revoke “${renamed}”?` });
  await confirm.getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByRole("row").filter({ hasText: renamed })).toContainText("Revoked");
  expect(await meWith(playwright, secret)).toBe(401);
});

test("delegated credentials: create, rotate (old secret stops working), revoke", async ({ page, playwright }) => {
  await loginViaUi(page, user);
  await page.goto("/settings/tokens");
  await expect(page.getByText("No delegated credentials")).toBeVisible();

  const name = uniq("load runner");
  await page.getByRole("button", { name: "Create delegated credential" }).click();
  const dialog = page.getByRole("dialog", { name: "Create delegated credential" });
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  await dialog.getByLabel("Namespace").click();
  await page.getByRole("option", { name: "sandbox" }).click();
  await dialog.getByRole("button", { name: "Create credential" }).click();
  const reveal = page.getByRole("dialog", { name: "Your delegated credential" });
  const first = await reveal.getByLabel("Secret").inputValue();
  expect(first).toMatch(/^pmd_/);
  await reveal.getByRole("button", { name: "I have copied it" }).click();

  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("sandbox");
  await expect(row).toContainText(/in 3 months|in 90 days/);
  expect(await meWith(playwright, first)).toBe(200);

  await page.getByRole("button", { name: `Rotate ${name}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Rotate credential" }).click();
  const second = await page.getByRole("dialog", { name: "Your delegated credential" }).getByLabel("Secret").inputValue();
  expect(second).toMatch(/^pmd_/);
  expect(second).not.toBe(first);
  await page.getByRole("button", { name: "I have copied it" }).click();
  expect(await meWith(playwright, first)).toBe(401);
  expect(await meWith(playwright, second)).toBe(200);

  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke credential" }).click();
  await expect(row).toContainText("Revoked");
  expect(await meWith(playwright, second)).toBe(401);
});
