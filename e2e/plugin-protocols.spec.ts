// The plugin wire listener (SERVICE_UNIFIED_PORT=1) seen in the console: the
// Protocol servers page lists its codecs with the serverName a socket mock
// uses, its port and live state; a mock with that serverName answers a real
// Redis client (ioredis). Without the variable the card is not shown (the
// shared e2e server runs without it: e2e/protocol-servers.spec.ts).
import { expect, test } from "@playwright/test";
import Redis from "ioredis";
import { ADMIN_PASSWORD, freePort, startServer, type RunningServer } from "./support/server";
import { screenshot } from "./support/session";

test.describe.configure({ mode: "serial", timeout: 180_000 });

let server: RunningServer;
let pluginPort: number;

test.beforeAll(async () => {
  pluginPort = await freePort();
  server = await startServer({ SERVICE_UNIFIED_PORT: "1", PLUGIN_PORT: String(pluginPort) });
});

test.afterAll(async () => {
  await server?.stop();
});

test("the Protocol servers page shows the plugin codecs; a plugin:resp mock answers ioredis", async ({ page }) => {
  const login = await page.request.post(`${server.baseUrl}/api/v1/auth/login`, { data: { username: "admin", password: ADMIN_PASSWORD } });
  expect(login.status()).toBe(200);
  const created = await page.request.post(`${server.baseUrl}/api/v1/mocks?namespace=sandbox`, {
    data: { id: "cache-get", socket: { serverName: "plugin:resp", event: "GET", conditions: [{ path: "$[0]", assertAction: "equals", value: "greeting" }] }, response: { payload: "hello from a mock" } },
  });
  expect(created.status(), await created.text()).toBe(200);

  await page.goto(`${server.baseUrl}/protocol-servers?ns=sandbox`);
  const card = page.getByRole("list", { name: "Plugin protocols" });
  const resp = card.getByRole("listitem").filter({ hasText: "plugin:resp" });
  await expect(resp).toContainText("Redis serialization protocol (RESP2)");
  await expect(resp).toContainText(`tcp :${pluginPort}`);
  await expect(resp).toContainText("listening");
  await expect(resp).toContainText("1 mock");
  await expect(card.getByRole("listitem").filter({ hasText: "plugin:line" })).toContainText("0 mocks");
  await screenshot(page, "plugin-protocols");

  const redis = new Redis({ host: "127.0.0.1", port: pluginPort, lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    await expect.poll(() => redis.get("greeting").catch((e: Error) => e.message), { timeout: 15_000 }).toBe("hello from a mock");
  } finally {
    redis.disconnect();
  }
});
