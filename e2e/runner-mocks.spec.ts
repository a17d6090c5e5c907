// Mocks of the protocol runner made in the mock editor, answered to real
// clients: a socket mock for a TCP server (a message reply and a "connect"
// greeting) through node:net, one for a UDP server through node:dgram, and an
// SMTP mock (server picker, condition lists, reply code) that refuses a
// nodemailer mail it matches and lets another through.
import { expect, type Page, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { choose, fillCode, newWorkspace, type Workspace } from "./support/mocks";
import { createServerInUi, tcpFirstLine, udpAsk } from "./support/protocol-servers";
import { freePort } from "./support/server";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

let ws: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "runner");
  await api.dispose();
});

async function newMock(page: Page, protocol: string) {
  await page.goto(`/mocks/new?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "New mock", level: 1 })).toBeVisible();
  const id = uniq("m");
  await page.getByLabel("Mock id").fill(id);
  await choose(page, "Protocol", protocol);
  return id;
}

async function save(page: Page, id: string) {
  await page.getByRole("button", { name: "Save mock" }).first().click();
  await expect(page.getByText(`Mock “${id}” created`)).toBeVisible();
}

test("TCP: a socket mock made in the editor answers a net client, and a connect mock greets it", async ({ page }) => {
  test.slow();
  await loginViaUi(page, ws.owner);
  const server = uniq("orders-tcp");
  const port = await freePort();
  await createServerInUi(page, ws.namespace, { protocol: "TCP", name: server, port });

  let id = await newMock(page, "Socket");
  await choose(page, "Server", new RegExp(`^${server} \\(TCP port ${port}\\)$`));
  await expect(page.getByText(`TCP clients of “${server}” (port ${port}) get this reply`)).toBeVisible();
  await page.getByRole("button", { name: "Add message condition" }).click();
  await page.getByLabel("Message condition 1 path").fill("$.ping");
  await page.getByLabel("Message condition 1 value").fill("1");
  await fillCode(page, "Response payload", '{"reply": "pong"}');
  await screenshot(page, "mock-editor-tcp");
  await save(page, id);
  // The runner's index follows the save through NOTIFY; ask until it answers.
  await expect.poll(() => tcpFirstLine(port, '{"ping": 1}\n'), { timeout: 20_000 }).toBe('{"reply":"pong"}');

  id = await newMock(page, "Socket");
  await choose(page, "Server", new RegExp(`^${server} `));
  await page.getByLabel("Event", { exact: true }).fill("connect");
  await expect(page.getByText("connect: a greeting sent as soon as a TCP client connects")).toBeVisible();
  await choose(page, "Response payload format", "Text");
  await fillCode(page, "Response payload", "welcome");
  await save(page, id);
  await expect.poll(() => tcpFirstLine(port), { timeout: 20_000 }).toBe("welcome");
});

test("UDP: a socket mock made in the editor answers a dgram client", async ({ page }) => {
  await loginViaUi(page, ws.owner);
  const server = uniq("metrics-udp");
  const port = await freePort();
  await createServerInUi(page, ws.namespace, { protocol: "UDP", name: server, port });
  const id = await newMock(page, "Socket");
  await choose(page, "Server", new RegExp(`^${server} \\(UDP port ${port}\\)$`));
  await fillCode(page, "Response payload", '{"ack": true}');
  await save(page, id);
  await expect.poll(() => udpAsk(port, '{"event": "sample", "data": {"v": 1}}'), { timeout: 20_000 }).toBe('{"ack":true}');
});

test("SMTP: a mock made with the server picker, the condition lists and the reply code refuses the mail it matches, sent by nodemailer", async ({ page }) => {
  await loginViaUi(page, ws.owner);
  const server = uniq("mail");
  const port = await freePort();
  await createServerInUi(page, ws.namespace, { protocol: "SMTP", name: server, port });
  const id = await newMock(page, "SMTP");
  await choose(page, "SMTP server", new RegExp(`^${server} `));
  await page.getByRole("button", { name: "Add sender condition" }).click();
  await choose(page, "Sender condition 1 operator", /^contains$/);
  await page.getByLabel("Sender condition 1 value").fill("@shop.example");
  await page.getByRole("button", { name: "Add subject condition" }).click();
  await choose(page, "Subject condition 1 operator", /^matches/);
  await page.getByLabel("Subject condition 1 value").fill("^Order \\d+");
  await page.getByRole("button", { name: "Add mail header condition" }).click();
  await page.getByLabel("Mail header condition 1 name").fill("X-Priority");
  await page.getByLabel("Mail header condition 1 value").fill("high");
  await page.getByLabel("Response SMTP reply code").fill("550");
  await choose(page, "Response payload format", "Text");
  await fillCode(page, "Response payload", "5.7.1 high-priority orders go elsewhere");
  await screenshot(page, "mock-editor-smtp");
  await save(page, id);

  const api = await adminApi();
  const res = await api.get(`/api/v1/mocks/${id}?namespace=${ws.namespace}`);
  expect(res.status(), await res.text()).toBe(200);
  const mock = await res.json();
  await api.dispose();
  expect(mock.smtp).toEqual({
    serverName: server,
    senderConditions: [{ assertAction: "contains", value: "@shop.example" }],
    subjectConditions: [{ assertAction: "matches", value: "^Order \\d+" }],
    headerConditions: [{ path: "X-Priority", assertAction: "equals", value: "high" }],
  });
  expect(mock.response.statusCode).toBe(550);

  const mailer = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
  const order = { from: "app@shop.example", to: "ops@example.com", subject: "Order 12", text: "Ship it", headers: { "X-Priority": "high" } };
  // The runner's index follows the save through NOTIFY: send until the mock answers.
  await expect
    .poll(() => mailer.sendMail(order).then(() => "accepted", (err: { responseCode?: number; response?: string }) => `${err.responseCode} ${err.response}`), { timeout: 20_000 })
    .toBe("550 550 5.7.1 high-priority orders go elsewhere");
  // A mail the conditions do not take is accepted.
  const other = await mailer.sendMail({ ...order, subject: "Invoice 3" });
  expect(other.response).toMatch(/^250 /);
  mailer.close();
});
