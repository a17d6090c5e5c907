// The Brokers screen in real Chromium: against the machine's RabbitMQ, a queue
// made in the browser, a message published to it, peeked (it stays), purged
// and the queue deleted; against librdkafka's mock cluster (kcat), a record
// produced, the topic's count, a peek, and the broker's own reason when it
// cannot list consumer groups.
import { expect, type Page, test } from "@playwright/test";
import { type KafkaMockCluster, startKafkaMockCluster } from "../protocol-runner/kafka/mock-cluster";
import { createBrokerServer, openBroker } from "./support/brokers";
import { newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

let ws: Workspace;
let kafka: KafkaMockCluster;

test.beforeAll(async () => {
  kafka = await startKafkaMockCluster();
  const api = await adminApi();
  ws = await newWorkspace(api, "brokers");
  await createBrokerServer(api, ws.namespace, { name: "local-rabbit", protocol: "rabbitmq", url: "amqp://guest:guest@127.0.0.1:5672" });
  await createBrokerServer(api, ws.namespace, { name: "local-kafka", protocol: "kafka", brokers: [kafka.brokers] });
  await api.dispose();
});

test.afterAll(async () => {
  await kafka?.stop();
});

const rowOf = (page: Page, name: string) => page.getByRole("row").filter({ hasText: name });

/** Console errors and uncaught exceptions from now on: the screen must leave the console clean, also when a broker errs. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    // Chromium's own network line for a tRPC call answered 502 (a broker that failed, shown on the page), not the app's.
    if (msg.text().startsWith("Failed to load resource") && (msg.location().url ?? "").includes("/api/trpc/brokers.")) return;
    errors.push(`console.error: ${msg.text()} ${msg.location().url ?? ""}`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  return errors;
}

test("RabbitMQ: create a queue, publish, peek, purge and delete it", async ({ page }) => {
  const errors = consoleErrors(page);
  await loginViaUi(page, ws.owner);
  await page.goto(`/brokers?ns=${ws.namespace}`);
  await expect(page.getByText("No broker chosen")).toBeVisible();
  await openBroker(page, ws.namespace, "local-rabbit");
  await expect(page.getByText(/RabbitMQ 3\./)).toBeVisible();

  const queue = uniq("orders");
  await page.getByLabel("New queue").fill(queue);
  await page.getByRole("button", { name: "Create queue" }).click();
  await expect(page.getByText(`Queue ${queue} created`)).toBeVisible();
  await expect(rowOf(page, queue)).toBeVisible();

  await page.getByRole("tab", { name: "Publish" }).click();
  await page.getByLabel("Routing key").fill(queue);
  await page.getByLabel("Body").fill('{"order": 42}');
  await page.getByRole("button", { name: "Publish message" }).click();
  await expect(page.getByText("Message published")).toBeVisible();

  await page.getByRole("tab", { name: "Queues" }).click();
  await page.getByRole("button", { name: `Peek ${queue}` }).click();
  await expect(page.getByLabel("Queue", { exact: true })).toHaveValue(queue);
  await page.getByRole("button", { name: "Peek", exact: true }).click();
  const messages = page.getByRole("list", { name: "Messages" });
  await expect(messages).toContainText('"order": 42');
  await expect(messages).toContainText(`/ ${queue}`);
  await screenshot(page, "brokers-rabbitmq-peek");
  // A peek puts the message back: a second one sees it again, now redelivered.
  await page.getByRole("button", { name: "Peek", exact: true }).click();
  await expect(messages).toContainText("redelivered");

  await page.getByRole("tab", { name: "Queues" }).click();
  await page.getByRole("button", { name: `Purge ${queue}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Purge queue" }).click();
  await expect(page.getByText(`1 message purged from ${queue}`)).toBeVisible();
  await screenshot(page, "brokers-rabbitmq-queues");
  await page.getByRole("button", { name: `Delete ${queue}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete queue" }).click();
  await expect(page.getByText(`Queue ${queue} deleted`)).toBeVisible();
  await expect(rowOf(page, queue)).toHaveCount(0);

  await page.getByRole("tab", { name: "Exchanges" }).click();
  await expect(rowOf(page, "amq.topic")).toBeVisible();
  expect(errors).toEqual([]);
});

test("Kafka: produce a record, see the topic's count, peek it; a broker that cannot list groups says so", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = consoleErrors(page);
  await loginViaUi(page, ws.owner);
  await openBroker(page, ws.namespace, "local-kafka");
  await expect(page.getByText(/cluster mockCluster/)).toBeVisible();

  const topic = uniq("payments");
  await page.getByRole("tab", { name: "Produce" }).click();
  await page.getByRole("textbox", { name: "Topic", exact: true }).fill(topic);
  await page.getByRole("textbox", { name: "Key", exact: true }).fill("p-1");
  await page.getByRole("textbox", { name: "Value", exact: true }).fill('{"amount": 10}');
  await page.getByRole("button", { name: "Produce record" }).click();
  await expect(page.getByText(new RegExp(`Produced to ${topic} partition \\d+ at offset 0`))).toBeVisible();

  await page.getByRole("tab", { name: "Topics" }).click();
  await page.getByRole("button", { name: "Refresh" }).click();
  // Columns: topic, partitions, messages, offsets.
  await expect(rowOf(page, topic).getByRole("cell").nth(2)).toHaveText("1");
  await page.getByRole("button", { name: `Peek ${topic}` }).click();
  await page.getByRole("button", { name: "Peek", exact: true }).click();
  const records = page.getByRole("list", { name: "Records" });
  await expect(records).toContainText('"amount": 10', { timeout: 30_000 });
  await expect(records).toContainText("key p-1");
  await screenshot(page, "brokers-kafka-peek");

  await page.getByRole("tab", { name: "Consumer groups" }).click();
  await expect(page.getByRole("tabpanel", { name: "Consumer groups" }).getByRole("alert")).toContainText("does not support listing consumer groups");
  await screenshot(page, "brokers-kafka-groups");
  expect(errors).toEqual([]);
});
