// RabbitMQ's management HTTP API (the rabbitmq_management plugin): the only
// way to list queues and exchanges, which AMQP cannot enumerate. Requests go
// through the SSRF-guarded agents; a plugin that is not enabled (connection
// refused, 404) is `ManagementUnavailable`, so callers can fall back to AMQP.
import http from "node:http";
import https from "node:https";
import { guardedAgent } from "@/server/lib/ssrf";
import type { RabbitTarget } from "./broker-target";

export class ManagementUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ManagementUnavailable";
  }
}

/** GET `${managementUrl}/api${path}` with the broker's credentials; the parsed JSON. */
export function managementGet<T>(target: RabbitTarget, path: string): Promise<T> {
  const url = new URL(`${target.managementUrl}/api${path}`);
  const auth = Buffer.from(`${target.credentials.username}:${target.credentials.password}`).toString("base64");
  const client = url.protocol === "https:" ? https : http;
  return new Promise<T>((resolve, reject) => {
    const req = client.request(url, { method: "GET", agent: guardedAgent(url.protocol), timeout: target.timeoutMs, headers: { authorization: `Basic ${auth}`, accept: "application/json" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const status = res.statusCode ?? 0;
        if (status === 401) return reject(new ManagementUnavailable(`${target.managementUrl} refused the credentials (401); the user needs the 'monitoring' or 'management' tag`));
        if (status !== 200) return reject(new ManagementUnavailable(`${target.managementUrl} answered ${status} for ${url.pathname}`));
        try {
          resolve(JSON.parse(text) as T);
        } catch {
          reject(new ManagementUnavailable(`${target.managementUrl} did not answer JSON; is it RabbitMQ's management API?`));
        }
      });
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${target.timeoutMs} ms`)));
    req.on("error", (err) => reject(err.name === "BlockedTargetError" ? err : new ManagementUnavailable(`${target.managementUrl}: ${err.message}`)));
    req.end();
  });
}

export const vhostPath = (vhost: string) => encodeURIComponent(vhost);
