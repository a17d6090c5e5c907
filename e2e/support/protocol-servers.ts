// Helpers for the protocol-runner specs: a protocol server made through the
// Protocol servers screen (waiting until the runner reports it listening),
// and real TCP and UDP clients that ask once and read the first answer.
import dgram from "node:dgram";
import net from "node:net";
import { expect, type Page } from "@playwright/test";
import { choose } from "./mocks";

/** Creates a server in the browser's New server dialog; `listening`: wait until the runner opened it (or connected to its broker). */
export async function createServerInUi(page: Page, namespace: string, s: { protocol: "TCP" | "UDP" | "SMTP"; name: string; port: number } | { protocol: "RabbitMQ" | "NATS"; name: string; url: string }, listening = true) {
  await page.goto(`/protocol-servers?ns=${namespace}`);
  await page.getByRole("button", { name: "New server" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New protocol server" });
  await choose(page, "Protocol", s.protocol);
  await dialog.getByLabel("Name", { exact: true }).fill(s.name);
  if ("port" in s) await dialog.getByLabel("Port").fill(String(s.port));
  else await dialog.getByLabel("URL").fill(s.url);
  await dialog.getByRole("button", { name: "Create server" }).click();
  const row = page.getByRole("row").filter({ hasText: s.name });
  await expect(row).toBeVisible();
  if (listening) await expect(row).toContainText("listening", { timeout: 30_000 });
}

/** Connects, optionally sends `message`, and resolves with the first line the server sends (null after `waitMs`). */
export function tcpFirstLine(port: number, message?: string, waitMs = 2000): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let buffer = "";
    const done = (line: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(line);
    };
    const timer = setTimeout(() => done(null), waitMs);
    socket.on("connect", () => (message === undefined ? undefined : socket.write(message)));
    socket.on("data", (d) => {
      buffer += d.toString("utf8");
      const nl = buffer.indexOf("\n");
      if (nl >= 0) done(buffer.slice(0, nl));
    });
    socket.on("error", () => done(null));
  });
}

/** Sends one datagram and resolves with the first datagram back (null after `waitMs`). */
export function udpAsk(port: number, message: string, waitMs = 2000): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket("udp4");
    const done = (reply: string | null) => {
      clearTimeout(timer);
      socket.close();
      resolve(reply);
    };
    const timer = setTimeout(() => done(null), waitMs);
    socket.on("message", (m) => done(m.toString("utf8")));
    socket.on("error", () => done(null));
    socket.send(message, port, "127.0.0.1");
  });
}
