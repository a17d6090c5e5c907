import { expect, type APIRequestContext, type Page } from "@playwright/test";

export const admin = { username: "admin", password: process.env.E2E_ADMIN_PASSWORD ?? "e2e-admin-password" };

/** Logs in through the API; the page's context shares the session cookie. */
export async function loginViaApi(page: Page, user = admin) {
  const res = await page.request.post("/api/v1/auth/login", { data: user });
  expect(res.status(), await res.text()).toBe(200);
}

export async function apiAsAdmin(request: APIRequestContext) {
  const res = await request.post("/api/v1/auth/login", { data: admin });
  expect(res.status()).toBe(200);
  return request;
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}
