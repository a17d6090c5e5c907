// Helpers for the Brokers screen spec: broker protocol servers made through the
// REST API (the screen is what is under test), and the screen's server picker.
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { choose } from "./mocks";

export async function createBrokerServer(api: APIRequestContext, namespace: string, server: { name: string; protocol: "rabbitmq" | "kafka"; url?: string; brokers?: string[] }) {
  const res = await api.post(`/api/v1/protocol-servers?namespace=${namespace}`, { data: server });
  expect(res.status(), await res.text()).toBe(201);
}

/** Opens the Brokers screen of `namespace` and picks the protocol server `name`. */
export async function openBroker(page: Page, namespace: string, name: string) {
  await page.goto(`/brokers?ns=${namespace}`);
  await expect(page.getByRole("heading", { name: "Brokers", level: 1 })).toBeVisible();
  await choose(page, "Server", new RegExp(`^${name} \\(`));
}
