// The Protocol servers screen against the real protocol runner: a server made
// in the browser turns "listening" (the runner opened the port), a port that
// is taken shows the error with its reason, Test reports the answer, SMTP
// credentials are write-only, edit and delete go through their dialogs.
import net from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { choose, newWorkspace, type Workspace } from "./support/mocks";
import { freePort } from "./support/server";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

let ws: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "servers");
  await api.dispose();
});

/** Fills and submits the new-server dialog. */
async function createServer(page: Page, s: { protocol?: string; name: string; port?: number }) {
  await page.getByRole("button", { name: "New server" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New protocol server" });
  if (s.protocol) await choose(page, "Protocol", s.protocol);
  await dialog.getByLabel("Name", { exact: true }).fill(s.name);
  if (s.port !== undefined) await dialog.getByLabel("Port").fill(String(s.port));
  return dialog;
}

const rowOf = (page: Page, name: string) => page.getByRole("row").filter({ hasText: name });

test("a TCP server made in the browser starts listening; Test connects; a taken port is an error with its reason; edit and delete", async ({ page }) => {
  await loginViaUi(page, ws.owner);
  await page.goto(`/protocol-servers?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "Protocol servers", level: 1 })).toBeVisible();
  await expect(page.getByText("No protocol servers yet")).toBeVisible();
  await screenshot(page, "protocol-servers-empty");

  // A missing port is the contract's message on the field.
  const name = uniq("orders-tcp");
  let dialog = await createServer(page, { name });
  await dialog.getByRole("button", { name: "Create server" }).click();
  await expect(dialog.getByText("required for tcp")).toBeVisible();
  await choose(page, "Framing", "Raw");
  await expect(dialog.getByLabel("Quiet pause (ms)")).toHaveValue("100");
  await choose(page, "Framing", "One message per line");
  const port = await freePort();
  await dialog.getByLabel("Port").fill(String(port));
  await screenshot(page, "protocol-server-form");
  await dialog.getByRole("button", { name: "Create server" }).click();
  await expect(page.getByText(`${name} created`)).toBeVisible();
  // The runner picks the row up on its notification and writes its state; the page polls it.
  await expect(rowOf(page, name)).toContainText("listening", { timeout: 30_000 });
  await expect(rowOf(page, name)).toContainText(`:${port}`);

  await page.getByRole("button", { name: `Test ${name}` }).click();
  await expect(page.getByRole("status").filter({ hasText: `Test of ${name}: OK` })).toBeVisible();
  await screenshot(page, "protocol-servers-listening");

  // A port something else holds: the runner reports why.
  const blocker = net.createServer();
  const taken = await freePort();
  await new Promise<void>((resolve) => blocker.listen(taken, "0.0.0.0", resolve));
  try {
    const busy = uniq("busy-tcp");
    dialog = await createServer(page, { name: busy, port: taken });
    await dialog.getByRole("button", { name: "Create server" }).click();
    await expect(rowOf(page, busy)).toContainText("error", { timeout: 30_000 });
    await expect(rowOf(page, busy)).toContainText(`port ${taken} is in use`);
    await screenshot(page, "protocol-servers-error");
    await page.getByRole("button", { name: `Delete ${busy}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete server" }).click();
    await expect(rowOf(page, busy)).toHaveCount(0);
  } finally {
    await new Promise((r) => blocker.close(r));
  }

  // Search filters in place.
  await page.getByLabel("Search protocol servers").fill("no-such-server");
  await expect(page.getByText("No servers match")).toBeVisible();
  await page.getByLabel("Search protocol servers").fill(name);
  await expect(rowOf(page, name)).toBeVisible();

  // Edit: a new port; the runner moves the listener.
  const moved = await freePort();
  await page.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await expect(edit.getByLabel("Port")).toHaveValue(String(port));
  await edit.getByLabel("Port").fill(String(moved));
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(rowOf(page, name)).toContainText(`:${moved}`);
  await expect(rowOf(page, name)).toContainText("listening", { timeout: 30_000 });

  await page.getByRole("button", { name: `Delete ${name}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete server" }).click();
  await expect(rowOf(page, name)).toHaveCount(0);
});

test("SMTP credentials are write-only: the form says set or not set, and can clear them; brokers take their own fields", async ({ page }) => {
  await loginViaUi(page, ws.owner);
  await page.goto(`/protocol-servers?ns=${ws.namespace}`);
  const name = uniq("mail");
  const dialog = await createServer(page, { protocol: "SMTP", name, port: await freePort() });
  await dialog.getByLabel("Require SMTP AUTH (with the credentials below)").check();
  await expect(dialog.getByText("not set")).toBeVisible();
  await dialog.getByLabel("Username").fill("robot");
  await dialog.getByLabel("Password").fill("s3cret-pw");
  await dialog.getByRole("button", { name: "Create server" }).click();
  await expect(rowOf(page, name)).toContainText("with credentials");
  await expect(rowOf(page, name)).toContainText("SMTP");

  await page.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${name}` });
  await expect(edit.getByText("set", { exact: true })).toBeVisible();
  await expect(edit.getByLabel("Password")).toHaveValue("");
  await expect(edit.getByLabel("Require SMTP AUTH (with the credentials below)")).toBeChecked();
  await screenshot(page, "protocol-server-smtp-edit");
  await edit.getByLabel("Clear the stored credentials").check();
  await expect(edit.getByText("not set")).toBeVisible();
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(rowOf(page, name)).not.toContainText("with credentials");

  // A Kafka server: brokers instead of host and port.
  const kafka = uniq("events");
  const k = await createServer(page, { protocol: "Kafka", name: kafka });
  await expect(k.getByLabel("Port")).toHaveCount(0);
  await k.getByLabel("Brokers").fill("not a broker");
  await k.getByRole("button", { name: "Create server" }).click();
  await expect(k.getByText("host:port", { exact: true })).toBeVisible();
  await k.getByLabel("Brokers").fill("127.0.0.1:1\n127.0.0.1:2");
  await k.getByRole("button", { name: "Create server" }).click();
  await expect(rowOf(page, kafka)).toContainText("127.0.0.1:1, 127.0.0.1:2");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
