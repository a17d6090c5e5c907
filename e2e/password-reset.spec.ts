import { expect, test } from "@playwright/test";
import { startSmtpSink, type SmtpSink } from "../server/testing/smtp-sink";
import { admin, screenshot } from "./support/session";
import { adminApi, alertWith, createUser, loginViaUi, type TestUser, uniq } from "./support/ui";

let sink: SmtpSink;

test.beforeAll(async () => {
  sink = await startSmtpSink();
});

test.afterAll(async () => {
  // Later specs run against the same server: leave e-mail switched off again.
  const api = await adminApi();
  await api.put("/api/v1/admin/email/config", { data: { enabled: false, host: "127.0.0.1", port: sink.port, from: "Polymock <noreply@example.org>" } });
  await api.dispose();
  await sink?.stop();
});

function linkIn(text: string, path: string): string {
  const match = new RegExp(`https?://\\S+${path}\\?token=[A-Za-z0-9]+`).exec(text);
  expect(match, `no ${path} link in: ${text}`).not.toBeNull();
  const url = new URL(match![0]);
  return url.pathname + url.search;
}

test.describe.serial("e-mail flows", () => {
  let user: TestUser;
  let email: string;

  test("admin sets up SMTP on the E-mail page, checks the connection and sends a test e-mail", async ({ page }) => {
    await loginViaUi(page, admin);
    await page.goto("/admin/email");
    await expect(page.getByRole("heading", { name: "E-mail", level: 1 })).toBeVisible();
    await expect(page.getByText(/Not configured yet/)).toBeVisible();
    await page.getByLabel("Host", { exact: true }).fill(sink.host);
    await page.getByLabel("Port", { exact: true }).fill(String(sink.port));
    await page.getByLabel("Sender").fill("Polymock <noreply@example.org>");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("E-mail settings saved")).toBeVisible();
    await page.getByRole("button", { name: "Check connection" }).click();
    await expect(page.getByText("Connection works")).toBeVisible();

    const to = `${uniq("ops")}@example.org`;
    await page.getByLabel("Recipient").fill(to);
    await page.getByRole("button", { name: "Send test e-mail" }).click();
    await expect(page.getByText(`Test e-mail sent to ${to}`)).toBeVisible();
    const mail = await sink.waitForMail((m) => m.to.includes(to));
    expect(mail.subject).toBe("Polymock test e-mail");
    await screenshot(page, "admin-email");
  });

  test("forgot password sends a link; the reset page sets a new password, once", async ({ page }) => {
    const api = await adminApi();
    email = `${uniq("rita")}@example.org`;
    user = await createUser(api, { prefix: "rita", email });
    await api.dispose();

    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByText("Check your inbox")).toBeVisible();
    await screenshot(page, "forgot-password");

    const mail = await sink.waitForMail((m) => m.to.includes(email) && m.subject === "Reset your password");
    const link = linkIn(mail.text, "/reset-password");
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill("a-new-password-1");
    await page.getByLabel("Repeat the new password").fill("a-new-password-2");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByText("The passwords do not match")).toBeVisible();
    await page.getByLabel("Repeat the new password").fill("a-new-password-1");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByText("Password changed")).toBeVisible();
    await screenshot(page, "reset-password");
    await page.getByRole("link", { name: "Log in" }).click();
    await loginViaUi(page, { username: user.username, password: "a-new-password-1" });

    // The link is single-use.
    const again = await page.context().browser()!.newContext();
    const other = await again.newPage();
    await other.goto(link);
    await other.getByLabel("New password", { exact: true }).fill("a-third-password");
    await other.getByLabel("Repeat the new password").fill("a-third-password");
    await other.getByRole("button", { name: "Set new password" }).click();
    await expect(alertWith(other, /invalid or has expired|already used/)).toBeVisible();
    await again.close();
  });

  test("the verification link from the e-mail marks the address verified", async ({ page }) => {
    const mail = await sink.waitForMail((m) => m.to.includes(email) && m.subject === "Verify your e-mail address");
    await page.goto(linkIn(mail.text, "/verify-email"));
    await expect(page.getByText("E-mail address verified")).toBeVisible();
    await screenshot(page, "verify-email");
    await page.goto("/verify-email?token=not-a-real-token-value");
    await expect(alertWith(page, "This link is invalid or has expired")).toBeVisible();

    await loginViaUi(page, { username: user.username, password: "a-new-password-1" });
    await page.goto("/settings/profile");
    await expect(page.getByText("Verified", { exact: true })).toBeVisible();
  });
});
