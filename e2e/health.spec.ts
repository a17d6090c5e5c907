import { expect, test } from "@playwright/test";

test("the service answers health, the OpenAPI document and an unmatched stub", async ({ request }) => {
  const health = await request.get("/health");
  expect(health.status()).toBe(200);
  const body = await health.json();
  expect(body.status).toBe("up");
  expect(body.checks.database.status).toBe("up");
  const doc = await request.get("/swagger/doc.json");
  expect((await doc.json()).openapi).toMatch(/^3\./);
  const stub = await request.get("/stubs/sandbox/nothing/here");
  expect(stub.status()).toBe(404);
  expect((await stub.json()).code).toBe("not_found");
});

test("the /swagger viewer renders the API document", async ({ page }) => {
  await page.goto("/swagger");
  await expect(page.getByRole("heading", { name: /Polymock API/ })).toBeVisible();
  // Swagger UI virtualises a long operation list: only what is near the viewport is in the DOM.
  await page.locator("#operations-tag-Authentication").scrollIntoViewIfNeeded();
  await expect(async () => {
    await page.mouse.wheel(0, 400);
    await expect(page.getByText("/api/v1/auth/login").first()).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 15_000 });
});
