// The Mailbox page against the real runner: an SMTP protocol server and an
// SMTP mock made through the API, mail sent with nodemailer to the runner's
// listener, then read in the console like Mailpit: list, open, HTML body in a
// sandboxed frame, an attachment downloaded, delete and clear.
import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { freePort } from "./support/server";
import { createMock, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

let ws: Workspace;
let smtpPort: number;

// Playwright's trace recorder snapshots every frame by running a script in it;
// in the sandboxed HTML frame Chromium refuses and logs "Blocked script
// execution in 'about:srcdoc'". That error is the recorder's, not the page's
// (without tracing the frame logs nothing), so this spec records no trace.
test.use({ trace: "off" });

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "mail");
  smtpPort = await freePort();
  const created = await api.post(`/api/v1/protocol-servers?namespace=${ws.namespace}`, { data: { name: "outbox", protocol: "smtp", host: "127.0.0.1", port: smtpPort } });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).id as string;
  // The runner picks the server up on its NOTIFY; wait until it listens.
  await expect
    .poll(async () => (await (await api.get(`/api/v1/protocol-servers/${id}?namespace=${ws.namespace}`)).json()).state, { timeout: 30_000 })
    .toBe("listening");
  await createMock(api, ws.namespace, { id: uniq("welcome"), smtp: { serverName: "outbox", subjectConditions: [{ assertAction: "contains", value: "Welcome" }] }, response: { payload: "welcome mail queued for $.req.to[0]" } });
  await api.dispose();
});

/** Collects console errors and uncaught exceptions (the house rule: a page that logs one is broken). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console.error: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  return errors;
}

const send = (mail: nodemailer.SendMailOptions) => nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, secure: false, ignoreTLS: true }).sendMail({ from: "shop@example.test", ...mail });

test("received mail is listed, opened with its HTML body sandboxed, its attachment downloaded; delete and clear ask first", async ({ page }) => {
  const errors = collectErrors(page);
  await loginViaUi(page, ws.owner);
  await page.goto(`/mail?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "Mailbox", level: 1 })).toBeVisible();
  await expect(page.getByText("No mail yet")).toBeVisible();
  await page.screenshot({ path: "/tmp/mailbox-empty.png" });

  const matched = await send({
    to: "new.user@example.test",
    subject: "Welcome aboard",
    text: "Hello in plain text",
    html: '<h1 style="font-family:sans-serif">Welcome, new user!</h1><p id="greeting">Your account is ready.</p>',
    attachments: [{ filename: "terms.txt", content: "Be nice.\n", contentType: "text/plain" }],
  });
  expect(matched.response).toBe("250 welcome mail queued for new.user@example.test");
  await send({ to: "ops@example.test", subject: "Disk almost full", text: "no mock for this one" });

  // The list re-reads itself: the mail shows up without a reload.
  const table = page.getByRole("table", { name: "Received mail" });
  const welcome = table.getByRole("row").filter({ hasText: "Welcome aboard" });
  await expect(welcome).toBeVisible({ timeout: 15_000 });
  await expect(welcome).toContainText("shop@example.test");
  await expect(welcome).toContainText("250");
  await expect(table.getByRole("row").filter({ hasText: "Disk almost full" })).toContainText("unmatched");

  await page.getByRole("searchbox", { name: "Search mail" }).fill("ops@");
  await expect(table.getByRole("row").filter({ hasText: "Welcome aboard" })).toHaveCount(0);
  await expect(table.getByRole("row").filter({ hasText: "Disk almost full" })).toBeVisible();
  await page.getByRole("searchbox", { name: "Search mail" }).fill("");

  await page.getByRole("button", { name: "Open mail Welcome aboard" }).click();
  const detail = page.getByRole("region", { name: "Mail Welcome aboard" });
  await expect(detail).toContainText("new.user@example.test");
  await expect(detail).toContainText("welcome mail queued for new.user@example.test");
  const frame = detail.locator('iframe[title="HTML body"]');
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(frame.contentFrame().getByRole("heading", { name: "Welcome, new user!" })).toBeVisible();
  await screenshot(page, "mailbox");
  await page.screenshot({ path: "/tmp/mailbox.png", fullPage: true });

  await detail.getByRole("tab", { name: "Text" }).click();
  await expect(detail).toContainText("Hello in plain text");
  await detail.getByRole("tab", { name: "Headers" }).click();
  await expect(detail).toContainText("Subject");
  await detail.getByRole("tab", { name: "Attachments (1)" }).click();
  const download = page.waitForEvent("download");
  await detail.getByRole("link", { name: "Download terms.txt" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("terms.txt");
  expect(readFileSync((await file.path())!, "utf8")).toBe("Be nice.\n");

  await detail.getByRole("button", { name: "Delete this mail" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(table.getByRole("row").filter({ hasText: "Welcome aboard" })).toHaveCount(0);
  await page.getByRole("button", { name: "Clear all" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Clear all" }).click();
  await expect(page.getByText("No mail yet")).toBeVisible();
  expect(errors).toEqual([]);
});
