import { expect, test } from "@playwright/test";
import { startSlapd, type Slapd } from "../server/testing/slapd";
import { admin, screenshot } from "./support/session";
import { adminApi, loginViaUi, logoutViaUi, uniq, alertWith } from "./support/ui";

test("a wrong password shows the API's error; the right one lands in the app", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
  await page.getByLabel("Username", { exact: true }).fill(admin.username);
  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(alertWith(page, "Invalid username or password")).toBeVisible();
  await screenshot(page, "login-error");

  await page.getByLabel("Password", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();

  // Logged in, the login page sends you on.
  await page.goto("/login");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("an anonymous visit to an app page goes to log in and comes back after", async ({ page }) => {
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin%2Fusers$/);
  await loginViaUi(page, admin, page.url());
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();

  await logoutViaUi(page);
  await page.goto("/settings/tokens");
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings%2Ftokens$/);
});

test("the error from ?error= is shown, and 'Forgot password?' leads to the reset form", async ({ page }) => {
  await page.goto("/login?error=AccountDisabled");
  await expect(alertWith(page, "Your account is disabled")).toBeVisible();
  await page.goto("/login?error=Something%20odd%20happened");
  await expect(alertWith(page, "Something odd happened")).toBeVisible();
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
});

test.describe("with identity providers", () => {
  let slapd: Slapd;
  const created: string[] = [];
  const sso = uniq("Corp SSO");
  const hidden = uniq("Hidden GitHub");
  const ldapName = uniq("Directory");

  test.beforeAll(async () => {
    slapd = await startSlapd();
    const api = await adminApi();
    const providers = [
      { type: "oidc", slug: sso.toLowerCase().replace(/\s/g, "-"), name: sso, config: { issuer: "https://sso.example.com/realms/main", clientId: "polymock" }, clientSecret: "s3cret" },
      { type: "github", slug: hidden.toLowerCase().replace(/\s/g, "-"), name: hidden, enabled: false, config: { clientId: "gh" }, clientSecret: "s3cret" },
      {
        type: "ldap",
        slug: ldapName.toLowerCase(),
        name: ldapName,
        config: { url: slapd.url, baseDn: slapd.baseDn, bindDn: slapd.bindDn },
        bindPassword: slapd.bindPassword,
      },
    ];
    for (const p of providers) {
      const res = await api.post("/api/v1/admin/auth/providers", { data: p });
      expect(res.status(), await res.text()).toBe(201);
      created.push((await res.json()).id);
    }
    await api.dispose();
  });

  test.afterAll(async () => {
    const api = await adminApi();
    for (const id of created) await api.delete(`/api/v1/admin/auth/providers/${id}`);
    await api.dispose();
    await slapd?.stop();
  });

  test("one button per enabled OAuth provider, and an LDAP tab that signs in against the directory", async ({ page }) => {
    await page.goto("/login?next=%2Fsettings%2Ftokens");
    const button = page.getByRole("link", { name: `Sign in with ${sso}`, exact: true });
    await expect(button).toBeVisible();
    const href = await button.getAttribute("href");
    expect(href).toContain(`/api/v1/auth/oauth/login/${sso.toLowerCase().replace(/\s/g, "-")}`);
    expect(new URL(href!).searchParams.get("callbackUrl")).toBe("/settings/tokens");
    await expect(page.getByRole("link", { name: `Sign in with ${hidden}` })).toHaveCount(0);
    await screenshot(page, "login-providers");

    await page.getByRole("tab", { name: "LDAP" }).click();
    await page.getByLabel("Directory username").fill(slapd.users.alice.uid);
    await page.getByLabel("Directory password").fill("wrong");
    await page.getByRole("button", { name: `Log in with ${ldapName}` }).click();
    await expect(alertWith(page, /invalid/i)).toBeVisible();
    await page.getByLabel("Directory password").fill(slapd.users.alice.password);
    await page.getByRole("button", { name: `Log in with ${ldapName}` }).click();
    await expect(page).toHaveURL(/\/settings\/tokens$/);
    await expect(page.getByRole("button", { name: `User menu for ${slapd.users.alice.uid}` })).toBeVisible();
  });
});
