// One attempt of a `type: "rabbitmq"` webhook: connect to the broker named by
// `rabbitURL`, publish the rendered body on a confirm channel and wait for the
// broker's ack, then close. A connection per delivery keeps nothing open for
// mocks that fire rarely; webhooks are off the hot path. Semantics in
// docs/decisions.md, "Proxy and webhooks".
import { connect, type ChannelModel } from "amqplib";
import type { RenderedWebhook } from "@/server/engine/engine";
import { assertAllowedTarget, BlockedTargetError, safeLookup } from "@/server/lib/ssrf";

export type PublishOutcome = { ok: true } | { ok: false; retry: boolean; error: string };

function messageOf(hook: RenderedWebhook): { content: Buffer; contentType: string | undefined; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  let contentType: string | undefined;
  for (const [name, values] of Object.entries(hook.headers)) {
    if (name.toLowerCase() === "content-type") contentType = values[0];
    else headers[name] = values.join(", ");
  }
  if (hook.body === undefined) return { content: Buffer.alloc(0), contentType, headers };
  const isText = typeof hook.body === "string";
  return {
    content: Buffer.from(isText ? (hook.body as string) : JSON.stringify(hook.body), "utf8"),
    contentType: contentType ?? (isText ? "text/plain; charset=utf-8" : "application/json"),
    headers,
  };
}

/** Publishes once; a broker that cannot be reached or does not confirm in time is worth retrying, a refused target is not. */
export async function publishToRabbit(hook: RenderedWebhook): Promise<PublishOutcome> {
  const target = hook.rabbit;
  if (!target) return { ok: false, retry: false, error: "no rabbitmq target" };
  let url: URL;
  try {
    url = new URL(target.url);
    // The guard speaks http(s); the broker's host is checked the same way (literal addresses here, names at connect time).
    assertAllowedTarget(new URL(`http://${url.host}/`));
  } catch (err) {
    return { ok: false, retry: false, error: err instanceof BlockedTargetError ? err.message : "rabbitURL is not a valid amqp URL" };
  }

  const conn: { model?: ChannelModel } = {};
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<PublishOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, retry: true, error: `no confirmation within ${hook.timeoutMs} ms` }), hook.timeoutMs);
  });
  const attempt = (async (): Promise<PublishOutcome> => {
    const model = (conn.model = await connect(target.url, { lookup: safeLookup, timeout: hook.timeoutMs, noDelay: true }));
    // A connection that fails later must not become an unhandled 'error' event.
    model.on("error", () => {});
    const channel = await model.createConfirmChannel();
    channel.on("error", () => {});
    let returned = false;
    channel.on("return", () => {
      returned = true;
    });
    if (target.queue) {
      await channel.assertQueue(target.queue, { durable: true });
      if (target.exchange) await channel.bindQueue(target.queue, target.exchange, target.routingKey);
    }
    const { content, contentType, headers } = messageOf(hook);
    channel.publish(target.exchange, target.routingKey, content, { mandatory: target.mandatory, contentType, headers, persistent: true });
    await channel.waitForConfirms();
    if (returned) return { ok: false, retry: false, error: `unroutable: exchange '${target.exchange}' has no queue bound for '${target.routingKey}'` };
    return { ok: true };
  })().catch((err: unknown): PublishOutcome => {
    if (err instanceof BlockedTargetError) return { ok: false, retry: false, error: err.message };
    return { ok: false, retry: true, error: err instanceof Error ? err.message : String(err) };
  });
  try {
    return await Promise.race([attempt, timedOut]);
  } finally {
    clearTimeout(timer);
    // Closing now also ends an attempt still waiting for its confirm; one still
    // connecting is closed once it gets there.
    void conn.model?.close().catch(() => {});
    void attempt.then(() => conn.model?.close().catch(() => {}));
  }
}
