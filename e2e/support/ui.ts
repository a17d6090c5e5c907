// Helpers for the UI specs: unique names, an admin API client of its own
// (never sharing cookies with the page under test), and logging in through
// the real login form.
import { randomBytes } from "node:crypto";
import { type APIRequestContext, expect, type Locator, type Page, request } from "@playwright/test";
import { admin } from "./session";

export function uniq(prefix: string) {
  return `${prefix}-${randomBytes(3).toString("hex")}`;
}

/** A fresh API client logged in as the admin; dispose it when done. */
export async function adminApi(): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  const res = await api.post("/api/v1/auth/login", { data: admin });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

export interface TestUser {
  id: string;
  username: string;
  password: string;
}

/** Creates a local user (optionally a member of namespaces) through the admin API. */
export async function createUser(api: APIRequestContext, opts: { prefix?: string; role?: "admin" | "user"; namespaces?: { name: string; role: "owner" | "editor" | "viewer" }[]; email?: string } = {}): Promise<TestUser> {
  const username = uniq(opts.prefix ?? "user");
  const password = `pw-${randomBytes(6).toString("hex")}`;
  const res = await api.post("/api/v1/admin/users", {
    data: { username, password, fullName: `Test ${username}`, role: opts.role ?? "user", namespaces: opts.namespaces, email: opts.email },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { id: (await res.json()).id, username, password };
}

/** Logs in through the login form and waits until the app shell is there. */
export async function loginViaUi(page: Page, user: { username: string; password: string }, path = "/login") {
  await page.goto(path);
  await page.getByLabel("Username", { exact: true }).fill(user.username);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page.getByRole("button", { name: new RegExp(`^User menu for ${user.username}$`) })).toBeVisible();
}

/** Opens the user menu and logs out. */
export async function logoutViaUi(page: Page) {
  await page.getByRole("button", { name: /^User menu for / }).click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** The page's error message containing `text` (Next's route announcer is an empty role=alert too). */
export function alertWith(scope: Page | Locator, text: string | RegExp) {
  return scope.getByRole("alert").filter({ hasText: text });
}
