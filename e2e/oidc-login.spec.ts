// OAuth/OIDC sign-in through next-auth, end to end: an admin configures a
// provider through the REST API, then Chromium signs in at a real OpenID
// Connect provider (oidc-provider, started here) and comes back with a
// Polymock session.
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from "@playwright/test";
import { startOidcProvider, type RunningOidcProvider } from "./support/oidc-provider";
import { apiAsAdmin } from "./support/session";

test.describe.configure({ mode: "serial" });

const baseUrl = process.env.E2E_BASE_URL as string;
// Slugs unique per run, so the spec never meets a provider it did not create.
const run = Date.now().toString(36);
const corp = { slug: `corp-${run}`, name: "Corp SSO", clientId: `polymock-corp-${run}`, clientSecret: "corp-client-secret-0123456789" };
const partner = { slug: `partner-${run}`, name: "Partner SSO", clientId: `polymock-partner-${run}`, clientSecret: "partner-client-secret-0123456789" };

// Subjects deliberately unlike the usernames: the username must come from preferred_username.
const ada = { sub: `uid-7f3a-${run}`, email: `ada.${run}@example.test`, email_verified: true, name: "Ada Lovelace", preferred_username: `ada.lovelace.${run}` };
const grace = { sub: `uid-91c2-${run}`, email: `grace.${run}@example.test`, email_verified: true, name: "Grace Hopper", preferred_username: `grace.${run}` };

let idp: RunningOidcProvider;
let admin: APIRequestContext;
let corpProvider: { id: string; loginUrl: string };

const callbackUri = (slug: string) => `${baseUrl}/api/auth/callback/${slug}`;

test.beforeAll(async () => {
  idp = await startOidcProvider({
    clients: [
      { clientId: corp.clientId, clientSecret: corp.clientSecret, redirectUris: [callbackUri(corp.slug)] },
      { clientId: partner.clientId, clientSecret: partner.clientSecret, redirectUris: [callbackUri(partner.slug)] },
    ],
    accounts: [ada, grace],
  });
  admin = await apiAsAdmin(await playwrightRequest.newContext({ baseURL: baseUrl }));
});

test.afterAll(async () => {
  await admin?.dispose();
  await idp?.stop();
});

async function createProvider(p: typeof corp, autoCreateUsers: boolean) {
  const res = await admin.post("/api/v1/admin/auth/providers", {
    data: {
      type: "oidc",
      slug: p.slug,
      name: p.name,
      autoCreateUsers,
      config: { issuer: idp.issuer, clientId: p.clientId, scopes: "openid email profile", usernameClaim: "preferred_username" },
      clientSecret: p.clientSecret,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  expect(body.loginUrl).toBe(`${baseUrl}/api/v1/auth/oauth/login/${p.slug}`);
  return body as { id: string; loginUrl: string };
}

/** On the provider's own login page (oidc-provider's development interaction): any password is accepted. */
async function signInAtProvider(page: Page, sub: string) {
  await page.waitForURL((url) => url.origin === new URL(idp.issuer).origin);
  await page.locator('input[name="login"]').fill(sub);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

async function usersNamed(search: string) {
  const res = await admin.get(`/api/v1/admin/users?search=${encodeURIComponent(search)}`);
  expect(res.status()).toBe(200);
  return (await res.json()).users as { id: string; username: string; authSource: string }[];
}

async function auditLogins(actor: string) {
  const res = await admin.get(`/api/v1/admin/audit?action=auth.login&actor=${encodeURIComponent(actor)}`);
  expect(res.status()).toBe(200);
  return (await res.json()).events as { outcome: string; details: unknown }[];
}

test("signing in with an admin-configured OIDC provider creates an oidc user; logout ends the session; the next sign-in is the same user", async ({ page, context }) => {
  corpProvider = await createProvider(corp, true);

  await page.goto("/login?next=/settings/profile");
  await page.getByRole("link", { name: `Sign in with ${corp.name}`, exact: true }).click();
  await signInAtProvider(page, ada.sub);
  await page.waitForURL(`${baseUrl}/settings/profile`);

  const me = await page.request.get("/api/v1/auth/me");
  expect(me.status(), await me.text()).toBe(200);
  const user = await me.json();
  expect(user).toMatchObject({ username: ada.preferred_username, authSource: "oidc", email: ada.email, emailVerified: true, fullName: ada.name, role: "user" });
  expect(user.lastLoginAt).not.toBeNull();

  // next-auth's session is a Polymock session: same cookie, same rules.
  const cookie = (await context.cookies(baseUrl)).find((c) => c.name === "polymock_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: false });

  const logout = await page.request.post("/api/v1/auth/logout");
  expect(logout.status()).toBe(200);
  expect((await page.request.get("/api/v1/auth/me")).status()).toBe(401);

  // The provider remembers the browser, so this time it sends it straight back.
  await page.goto("/login");
  await page.getByRole("link", { name: `Sign in with ${corp.name}`, exact: true }).click();
  await page.waitForURL((url) => url.origin === new URL(baseUrl).origin && !url.pathname.startsWith("/api/auth/") && !url.pathname.startsWith("/login"));
  const again = await page.request.get("/api/v1/auth/me");
  expect(again.status()).toBe(200);
  expect((await again.json()).id).toBe(user.id);
  expect(await usersNamed(`ada.lovelace.${run}`)).toHaveLength(1);

  const logins = await auditLogins(ada.preferred_username);
  expect(logins.map((e) => [e.outcome, e.details])).toEqual([
    ["success", { method: "oidc", provider: corp.slug, newUser: false }],
    ["success", { method: "oidc", provider: corp.slug, newUser: true }],
  ]);
});

test("the login URL works without JavaScript, accepts only callback paths on this site, and answers 404 once the provider is disabled", async ({ page, browser }) => {
  const noScript = await browser.newContext({ baseURL: baseUrl, javaScriptEnabled: false });
  try {
    const plain = await noScript.newPage();
    await plain.goto(corpProvider.loginUrl);
    await plain.getByRole("button", { name: `Continue to ${corp.name}` }).click();
    await plain.waitForURL((url) => url.origin === new URL(idp.issuer).origin);
    await expect(plain.locator('input[name="login"]')).toBeVisible();
  } finally {
    await noScript.close();
  }

  const elsewhere = await page.request.get(`${corpProvider.loginUrl}?callbackUrl=${encodeURIComponent("https://evil.example/")}`);
  expect(elsewhere.status()).toBe(400);
  expect((await elsewhere.json()).code).toBe("validation");

  const disable = await admin.put(`/api/v1/admin/auth/providers/${corpProvider.id}`, { data: { enabled: false } });
  expect(disable.status()).toBe(200);
  const res = await page.request.get(corpProvider.loginUrl);
  expect(res.status()).toBe(404);
  expect(await res.json()).toMatchObject({ code: "not_found" });

  await page.goto("/login");
  await expect(page.getByRole("link", { name: `Sign in with ${corp.name}`, exact: true })).toHaveCount(0);
});

test("a provider that does not create users sends an unknown account back to the login page with an error", async ({ page }) => {
  await createProvider(partner, false);

  await page.goto("/login");
  await page.getByRole("link", { name: `Sign in with ${partner.name}`, exact: true }).click();
  await signInAtProvider(page, grace.sub);
  await page.waitForURL((url) => url.origin === new URL(baseUrl).origin && url.pathname === "/login");
  expect(new URL(page.url()).searchParams.get("error")).toBe("AccountNotProvisioned");

  expect((await page.request.get("/api/v1/auth/me")).status()).toBe(401);
  expect(await usersNamed(`grace.${run}`)).toHaveLength(0);
  expect((await auditLogins(grace.email)).map((e) => [e.outcome, e.details])).toEqual([
    ["failure", { method: "oidc", provider: partner.slug, reason: "no linked user and the provider does not create users" }],
  ]);
});
