// A RabbitMQ mock made in the mock editor (server picker, queue, body and
// header conditions, reply properties), answered to a real amqplib client in
// RPC style, and the message in the mock's request log.
import { expect, test } from "@playwright/test";
import { connect, type ChannelModel } from "amqplib";
import { choose, fillCode, newWorkspace, type Workspace } from "./support/mocks";
import { createServerInUi } from "./support/protocol-servers";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

const BROKER = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";

let ws: Workspace;
let amqp: ChannelModel;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "rabbit");
  await api.dispose();
  amqp = await connect(BROKER);
});

test.afterAll(async () => {
  await amqp?.close();
});

/** Resolves once the runner consumes `queue` (a message to a queue nobody declared yet is dropped by the default exchange). */
async function consumers(queue: string): Promise<number> {
  const ch = await amqp.createChannel();
  ch.on("error", () => {});
  try {
    return (await ch.checkQueue(queue)).consumerCount;
  } catch {
    return 0;
  } finally {
    await ch.close().catch(() => {});
  }
}

test("a RabbitMQ mock made in the editor answers an amqplib RPC request, and the message is in its log", async ({ page }) => {
  test.slow();
  await loginViaUi(page, ws.owner);
  const server = uniq("orders-mq");
  await createServerInUi(page, ws.namespace, { protocol: "RabbitMQ", name: server, url: BROKER });

  await page.goto(`/mocks/new?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "New mock", level: 1 })).toBeVisible();
  const id = uniq("mq");
  const queue = uniq("e2e.orders");
  await page.getByLabel("Mock id").fill(id);
  await choose(page, "Protocol", "RabbitMQ");
  await choose(page, "RabbitMQ server", new RegExp(`^${server} `));
  await page.getByLabel("Queue", { exact: true }).fill(queue);
  await page.getByRole("button", { name: "Add body condition" }).click();
  await page.getByLabel("Body condition 1 path").fill("$.kind");
  await page.getByLabel("Body condition 1 value").fill("order");
  await page.getByRole("button", { name: "Add header condition" }).click();
  await page.getByLabel("Header condition 1 name").fill("x-tenant");
  await page.getByLabel("Header condition 1 value").fill("acme");
  await choose(page, "Delivery mode", /persistent/);
  await page.getByLabel("Type", { exact: true }).fill("order.accepted");
  await fillCode(page, "Response payload", '{"accepted": true, "id": "$.req.id"}');
  await screenshot(page, "mock-editor-rabbitmq");
  await page.getByRole("button", { name: "Save mock" }).first().click();
  await expect(page.getByText(`Mock “${id}” created`)).toBeVisible();

  const api = await adminApi();
  const saved = await (await api.get(`/api/v1/mocks/${id}?namespace=${ws.namespace}`)).json();
  await api.dispose();
  expect(saved.rabbitmq).toEqual({
    serverName: server,
    queue,
    conditions: [{ path: "$.kind", assertAction: "equals", value: "order" }],
    headers: [{ path: "x-tenant", assertAction: "equals", value: "acme" }],
    outputProps: { deliveryMode: 2, type: "order.accepted" },
  });

  // The runner follows the save through NOTIFY and starts consuming the queue.
  await expect.poll(() => consumers(queue), { timeout: 30_000 }).toBeGreaterThan(0);
  const ch = await amqp.createChannel();
  const { queue: replies } = await ch.assertQueue("", { exclusive: true });
  const reply = new Promise<{ body: string; correlationId?: string; type?: string; deliveryMode?: number }>((resolve) => {
    void ch.consume(replies, (m) => m && resolve({ body: m.content.toString(), correlationId: m.properties.correlationId, type: m.properties.type, deliveryMode: m.properties.deliveryMode }), { noAck: true });
  });
  ch.sendToQueue(queue, Buffer.from(JSON.stringify({ kind: "order", id: 7 })), { replyTo: replies, correlationId: "c-7", contentType: "application/json", headers: { "x-tenant": "acme" } });
  const answer = await reply;
  expect(JSON.parse(answer.body)).toEqual({ accepted: true, id: 7 });
  expect(answer).toMatchObject({ correlationId: "c-7", type: "order.accepted", deliveryMode: 2 });
  await ch.close();

  await page.goto(`/mocks/${id}?ns=${ws.namespace}&tab=log`);
  const log = page.getByRole("table", { name: "Request log" });
  await expect(log.getByRole("row").filter({ hasText: queue })).toBeVisible({ timeout: 20_000 });
  await screenshot(page, "mock-log-rabbitmq");
});
