import { expect, test } from "@playwright/test";
import { startSlapd, type Slapd } from "../server/testing/slapd";
import { admin, screenshot } from "./support/session";
import { loginViaUi, uniq } from "./support/ui";

test("an OIDC provider: create (with field errors), show on the login page, edit, disable, delete", async ({ page, browser }) => {
  await loginViaUi(page, admin);
  await page.goto("/admin/identity-providers");
  await expect(page.getByRole("heading", { name: "Identity providers", level: 1 })).toBeVisible();

  const name = uniq("Acme SSO");
  const slug = name.toLowerCase().replace(/\s+/g, "-");
  await page.getByRole("button", { name: "Add provider" }).click();
  const dialog = page.getByRole("dialog", { name: "Add identity provider" });
  await dialog.getByLabel("Display name").fill(name);
  await expect(dialog.getByLabel("Slug")).toHaveValue(slug);
  await dialog.getByLabel("Issuer URL").fill("not a url");
  await dialog.getByRole("button", { name: "Add provider" }).click();
  await expect(dialog.getByText("Enter a full URL, e.g. https://example.com")).toBeVisible();
  await dialog.getByLabel("Issuer URL").fill("https://sso.example.com/realms/main");
  await dialog.getByLabel("Client ID").fill("polymock");
  await dialog.getByLabel("Client secret").fill("client-secret-value");
  await expect(dialog.getByLabel("Redirect URI to register at the provider")).toHaveValue(new RegExp(`/api/auth/callback/${slug}$`));
  await screenshot(page, "admin-identity-provider-form");
  await dialog.getByRole("button", { name: "Add provider" }).click();
  await expect(page.getByText(`${name} added`)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("OpenID Connect");
  await expect(row).toContainText("Enabled");
  await screenshot(page, "admin-identity-providers");

  const anonymous = await browser.newContext();
  const loginPage = await anonymous.newPage();
  await loginPage.goto("/login");
  await expect(loginPage.getByRole("link", { name: `Sign in with ${name}`, exact: true })).toBeVisible();

  const renamed = `${name} Corp`;
  await page.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await expect(edit.getByText("Saved. Leave empty to keep it.")).toBeVisible();
  await expect(edit.getByLabel("Issuer URL")).toHaveValue("https://sso.example.com/realms/main");
  await expect(edit.getByLabel("Slug")).toBeDisabled();
  await edit.getByLabel("Display name").fill(renamed);
  await edit.getByLabel("Scopes").fill("openid email");
  await edit.getByRole("button", { name: "Save changes" }).click();
  const renamedRow = page.getByRole("row").filter({ hasText: renamed });
  await expect(renamedRow).toBeVisible();

  await page.getByRole("button", { name: `Disable ${renamed}` }).click();
  await expect(renamedRow).toContainText("Disabled");
  await loginPage.reload();
  await expect(loginPage.getByRole("link", { name: `Sign in with ${renamed}` })).toHaveCount(0);
  await anonymous.close();

  await page.getByRole("button", { name: `Delete ${renamed}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete provider" }).click();
  await expect(renamedRow).toHaveCount(0);
});

test.describe("LDAP", () => {
  let slapd: Slapd;
  test.beforeAll(async () => {
    slapd = await startSlapd();
  });
  test.afterAll(async () => {
    await slapd?.stop();
  });

  test("an LDAP provider: 'Test connection' reports each step, then save and delete", async ({ page }) => {
    await loginViaUi(page, admin);
    await page.goto("/admin/identity-providers");
    await page.getByRole("button", { name: "Add provider" }).click();
    const dialog = page.getByRole("dialog", { name: "Add identity provider" });
    await dialog.getByLabel("Type").click();
    await page.getByRole("option", { name: "LDAP" }).click();
    const name = uniq("Corp Directory");
    await dialog.getByLabel("Display name").fill(name);
    await dialog.getByLabel("Server URL").fill(slapd.url);
    await dialog.getByLabel("Base DN").fill(slapd.baseDn);
    await dialog.getByLabel("Bind DN").fill(slapd.bindDn);
    await dialog.getByLabel("Bind password").fill("wrong-password");
    await dialog.getByRole("button", { name: "Test connection" }).click();
    await expect(dialog.getByText("Connection test failed")).toBeVisible();
    await expect(dialog.getByRole("list", { name: "Test steps" })).toContainText("Connect:");

    await dialog.getByLabel("Bind password").fill(slapd.bindPassword);
    await dialog.getByLabel("Test user (optional)").fill(slapd.users.bob.uid);
    await dialog.getByLabel("Test user's password (optional)").fill(slapd.users.bob.password);
    await dialog.getByRole("button", { name: "Test connection" }).click();
    await expect(dialog.getByText("Connection works")).toBeVisible();
    await expect(dialog.getByRole("list", { name: "Test steps" })).toContainText("User password:");
    await expect(dialog.getByText(`Found user ${slapd.users.bob.uid}`)).toBeVisible();
    await screenshot(page, "admin-identity-provider-ldap");

    await dialog.getByRole("button", { name: "Add provider" }).click();
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toContainText("LDAP");

    // The saved provider is tested with its stored bind password.
    await page.getByRole("button", { name: `Edit ${name}` }).click();
    const edit = page.getByRole("dialog", { name: `Edit ${name}` });
    await edit.getByRole("button", { name: "Test connection" }).click();
    await expect(edit.getByText("Connection works")).toBeVisible();
    await edit.getByRole("button", { name: "Cancel" }).click();

    await page.getByRole("button", { name: `Delete ${name}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete provider" }).click();
    await expect(row).toHaveCount(0);
  });
});
