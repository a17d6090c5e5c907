import { expect, test } from "@playwright/test";
import { admin, screenshot } from "./support/session";
import { loginViaUi, uniq } from "./support/ui";

test("the audit log lists logins (and failed ones), filters them, and exports", async ({ page, playwright }) => {
  const ghost = uniq("ghost");
  const anonymous = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
  expect((await anonymous.post("/api/v1/auth/login", { data: { username: ghost, password: "whatever" } })).status()).toBe(401);
  await anonymous.dispose();

  await loginViaUi(page, admin);
  await page.goto("/admin/audit");
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  const table = page.getByRole("table", { name: "Audit events" });
  // Newest first: the login that just happened.
  await expect(table.getByRole("row").nth(1)).toContainText("auth.login");
  await expect(table.getByRole("row").nth(1)).toContainText(admin.username);
  await expect(table.getByRole("row").nth(1)).toContainText("Success");
  await screenshot(page, "admin-audit");

  await page.getByLabel("Actor").fill(ghost);
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByRole("row").nth(1)).toContainText("Failure");
  await expect(table.getByRole("row").nth(1)).toContainText("unknown user");

  await page.getByLabel("Actor").fill("");
  await page.getByLabel("Action starts with").fill("no.such.action");
  await expect(page.getByText("No events match")).toBeVisible();
  await page.getByLabel("Action starts with").fill("auth.login");
  await expect(table.getByRole("row").nth(1)).toContainText("auth.login");

  for (const [format, type] of [["csv", "text/csv"], ["json", "application/json"], ["syslog", "text/plain"], ["cef", "text/plain"]] as const) {
    const link = page.getByRole("link", { name: `Export as ${format === "csv" || format === "json" || format === "cef" ? format.toUpperCase() : "Syslog"}` });
    const href = await link.getAttribute("href");
    expect(href).toContain(`format=${format}`);
    expect(href).toContain("action=auth.login");
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain(type);
    expect(await res.text()).toContain("auth.login");
  }
});
