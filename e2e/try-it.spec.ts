// Try it speaks each mock's protocol: a GraphQL query to the GraphQL path, an
// SSE stream read event by event, a WebSocket conversation. Each time the mock
// answers and the console says so (no "No mock matched" from the HTTP preview).
import { expect, test } from "@playwright/test";
import { createMock, fillCode, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

let ws: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "try");
  await api.dispose();
});

test("GraphQL: a query to the mock's path gets its field", async ({ page }) => {
  const api = await adminApi();
  const id = await createMock(api, ws.namespace, { id: uniq("gql"), graphql: { operation: "query", field: "greeting", path: "/graphql" }, response: { statusCode: 200, payload: "hello from the mock" } });
  await api.dispose();
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks/${id}?ns=${ws.namespace}&tab=try`);
  await expect(page.getByLabel("Request path")).toHaveValue("/graphql");
  await expect(page.getByTestId("code-editor-GraphQL query").locator(".view-lines")).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Send request" }).click();
  const response = page.getByRole("region", { name: "Response" });
  await expect(response).toContainText("200");
  await expect(response.getByLabel("Response body")).toContainText('"greeting":"hello from the mock"');
  await expect(page.getByRole("region", { name: "Matching" })).toContainText("A mock answered");
  await expect(page.getByRole("region", { name: "Matching" })).not.toContainText("No mock matched");
  await screenshot(page, "try-it-graphql");
});

test("SSE: the stream's events are listed as they arrive", async ({ page }) => {
  const api = await adminApi();
  const id = await createMock(api, ws.namespace, {
    id: uniq("sse"),
    sse: { eventPath: "/events/ticks", eventName: "tick" },
    response: { statusCode: 200, sseEventChain: { events: [{ data: { n: 1 } }, { data: { n: 2 }, delay: 50 }, { eventName: "done", data: "bye" }] } },
  });
  await api.dispose();
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks/${id}?ns=${ws.namespace}&tab=try`);
  await expect(page.getByLabel("Request path")).toHaveValue("/events/ticks");
  await page.getByRole("button", { name: "Open stream" }).click();
  const events = page.getByRole("list", { name: "Received events" }).getByRole("listitem");
  await expect(events).toHaveCount(3);
  await expect(events.nth(0)).toContainText('tick{"n":1}');
  await expect(events.nth(2)).toContainText("donebye");
  await expect(page.getByRole("region", { name: "Event stream" })).toContainText("Stream ended: 3 events");
  await screenshot(page, "try-it-sse");
});

test("WebSocket: connect, send, and read the mock's reply", async ({ page }) => {
  const api = await adminApi();
  const server = uniq("chat");
  const id = await createMock(api, ws.namespace, { id: uniq("ws"), socket: { serverName: server }, response: { payload: { reply: "pong" } } });
  await api.dispose();
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks/${id}?ns=${ws.namespace}&tab=try`);
  const client = page.getByRole("region", { name: "WebSocket client" });
  await expect(client).toContainText(`/stubs/${ws.namespace}/${server}`);
  await client.getByRole("button", { name: "Connect" }).click();
  await expect(client).toContainText("Connected");
  await fillCode(page, "WebSocket message", '{"ping": 1}');
  await client.getByRole("button", { name: "Send message" }).click();
  const messages = page.getByRole("list", { name: "WebSocket messages" });
  await expect(messages).toContainText('→ sent{"ping": 1}');
  await expect(messages).toContainText('← received{"reply":"pong"}');
  await screenshot(page, "try-it-websocket");
});
