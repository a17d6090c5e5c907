// Sending a matched mock's webhooks (rendered by the engine, chosen by the
// serving core: server/serving/matched-webhooks.ts). Asynchronous ones (the
// default) start after the stub response has gone out, so a slow or failing
// receiver never delays or changes it; `async: false` ones are awaited before
// the answer, at most their `timeout`. Each delivery waits its `delay`, then
// tries up to 1 + `retries` times with a per-attempt timeout, waiting
// `retryDelay` (or backing off exponentially) after network errors and 5xx
// answers. http goes through the SSRF guard, strictly when the URL's host came
// from request data; rabbitmq publishes with amqplib, kafka with kafkajs (one
// connection per attempt, brokers through the same guard). Semantics in
// docs/decisions.md, "Proxy and webhooks".
import http from "node:http";
import https from "node:https";
import type { RenderedWebhook } from "@/server/engine/engine";
import { logger } from "@/server/lib/logger";
import { assertAllowedTarget, BlockedTargetError, guardedAgent, lookupFor, privatePolicyFor, type PrivatePolicy } from "@/server/lib/ssrf";
import { publishToKafka } from "./webhook-kafka";
import { publishToRabbit } from "./webhook-rabbitmq";

/** Whose webhooks these are, for the log. Which ones to send (`trigger`) is decided before: server/serving/matched-webhooks.ts. */
export interface WebhookOrigin {
  namespace: string;
  mockId: string;
  requestId: string;
}

export interface DispatcherOptions {
  /** Deliveries (waiting, sending or backing off) one process keeps at once; more are dropped. */
  maxInFlight: number;
  /** Wait before retry n is backoffBaseMs · 2^(n-1), at most backoffCapMs. */
  backoffBaseMs: number;
  backoffCapMs: number;
}

export const WEBHOOK_DISPATCH_DEFAULTS: DispatcherOptions = { maxInFlight: 1000, backoffBaseMs: 500, backoffCapMs: 30_000 };
const DROP_LOG_EVERY_MS = 10_000;

type Attempt = { ok: true; status: number } | { ok: false; retry: boolean; status?: number; error: string };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What the log may show of a webhook URL: its query string may hold secrets. */
const safeUrl = (url: URL) => `${url.origin}${url.pathname}`;

function requestBody(hook: RenderedWebhook, headers: Record<string, string[]>): Buffer | undefined {
  if (hook.body === undefined) return undefined;
  const has = (name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);
  const isText = typeof hook.body === "string";
  if (!has("content-type")) headers["Content-Type"] = [isText ? "text/plain; charset=utf-8" : "application/json"];
  return Buffer.from(isText ? (hook.body as string) : JSON.stringify(hook.body), "utf8");
}

function sendHttp(url: URL, hook: RenderedWebhook, policy: PrivatePolicy): Promise<Attempt> {
  return new Promise<Attempt>((resolve) => {
    // Rendered values may carry request data: CR/LF would split the request.
    const headers: Record<string, string[]> = {};
    for (const [name, values] of Object.entries(hook.headers)) headers[name] = values.map((v) => v.replace(/[\r\n]+/g, " "));
    if (!Object.keys(headers).some((h) => h.toLowerCase() === "user-agent")) headers["User-Agent"] = ["Polymock-Webhook"];
    const body = requestBody(hook, headers);
    if (body) headers["Content-Length"] = [String(body.length)];

    let done = false;
    let timedOut = false;
    const finish = (a: Attempt) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(a);
    };
    const client = url.protocol === "https:" ? https : http;
    let req: http.ClientRequest;
    try {
      req = client.request(url, { method: hook.method, headers, agent: guardedAgent(url.protocol, policy), lookup: lookupFor(policy) }, (res) => {
        // The receiver's body is not used; read it so the socket can be reused.
        res.resume();
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 400) finish({ ok: true, status });
          else finish({ ok: false, retry: status >= 500, status, error: `answered ${status}` });
        });
        const cut = (reason: string) => finish({ ok: false, retry: true, error: timedOut ? `no answer within ${hook.timeoutMs} ms` : reason });
        res.on("error", (err) => cut(err.message));
        res.on("close", () => {
          if (!res.complete) cut("the receiver closed the connection mid-response");
        });
      });
    } catch (err) {
      // node refuses some header values before sending; retrying cannot help.
      resolve({ ok: false, retry: false, error: (err as Error).message });
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, hook.timeoutMs);
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (err instanceof BlockedTargetError) finish({ ok: false, retry: false, error: err.message });
      else finish({ ok: false, retry: true, error: timedOut ? `no answer within ${hook.timeoutMs} ms` : (err.code ?? err.message) });
    });
    req.end(body);
  });
}

export class WebhookDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private dropped = 0;
  private lastDropLog = 0;

  constructor(private readonly opts: DispatcherOptions = WEBHOOK_DISPATCH_DEFAULTS) {}

  get size(): number {
    return this.inFlight.size;
  }

  /** Starts the deliveries and returns at once; outcomes are logged. */
  fire(hooks: RenderedWebhook[], origin: WebhookOrigin): void {
    for (const hook of hooks) this.start(hook, origin);
  }

  /**
   * Delivers before the stub answers (`async: false`): resolves when every
   * delivery has finished or its `timeout` has passed, whichever is first; a
   * delivery still retrying then goes on in the background.
   */
  async awaitDeliveries(hooks: RenderedWebhook[], origin: WebhookOrigin): Promise<void> {
    await Promise.all(
      hooks.map((hook) => {
        const delivery = this.start(hook, origin);
        if (!delivery) return undefined;
        let timer: NodeJS.Timeout | undefined;
        const bound = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, hook.timeoutMs);
        });
        return Promise.race([delivery, bound]).finally(() => clearTimeout(timer));
      }),
    );
  }

  private start(hook: RenderedWebhook, origin: WebhookOrigin): Promise<void> | undefined {
    if (this.inFlight.size >= this.opts.maxInFlight) {
      this.noteDropped(origin);
      return undefined;
    }
    const delivery: Promise<void> = this.deliver(hook, origin)
      .catch((err) => logger().error({ err, ...origin }, "webhook delivery failed unexpectedly"))
      .finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
    return delivery;
  }

  /** Resolves when every delivery under way (including ones started meanwhile) has finished. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private noteDropped(origin: WebhookOrigin) {
    this.dropped++;
    // One line per interval: a flood of drops must not also flood the log.
    const now = Date.now();
    if (now - this.lastDropLog < DROP_LOG_EVERY_MS) return;
    logger().warn({ ...origin, dropped: this.dropped, maxInFlight: this.opts.maxInFlight }, "webhooks dropped: too many deliveries in flight");
    this.lastDropLog = now;
    this.dropped = 0;
  }

  private async deliver(hook: RenderedWebhook, origin: WebhookOrigin): Promise<void> {
    const log = logger();
    let send: () => Promise<Attempt>;
    let where: string;
    if (hook.type === "kafka") {
      where = hook.kafka ? `kafka ${hook.kafka.brokers.join(",")} topic '${hook.kafka.topic}'` : "kafka";
      send = async () => {
        const r = await publishToKafka(hook);
        return r.ok ? { ok: true, status: 0 } : r;
      };
    } else if (hook.type === "rabbitmq") {
      where = hook.rabbit ? `${hook.rabbit.url.replace(/\/\/[^@/]*@/, "//")} exchange '${hook.rabbit.exchange}' key '${hook.rabbit.routingKey}'` : "rabbitmq";
      send = async () => {
        const r = await publishToRabbit(hook);
        return r.ok ? { ok: true, status: 0 } : r;
      };
    } else {
      const policy = privatePolicyFor({ fromRequestData: hook.fromRequestData, namespace: origin.namespace });
      let url: URL;
      try {
        url = new URL(hook.url);
        assertAllowedTarget(url, policy);
      } catch (err) {
        const blocked = err instanceof BlockedTargetError;
        log.warn({ ...origin, url: blocked ? hook.url.split("?")[0] : undefined, error: blocked ? err.message : `not an absolute URL: ${hook.url.split("?")[0].slice(0, 200)}` }, "webhook not sent");
        return;
      }
      where = safeUrl(url);
      send = () => sendHttp(url, hook, policy);
    }
    if (hook.delayMs > 0) await sleep(hook.delayMs);
    const attempts = 1 + hook.retries;
    for (let n = 1; ; n++) {
      const result = await send();
      if (result.ok) {
        log.info({ ...origin, url: where, method: hook.type === "http" ? hook.method : undefined, status: result.status || undefined, attempts: n }, "webhook delivered");
        return;
      }
      if (!result.retry || n >= attempts) {
        log.warn({ ...origin, url: where, method: hook.type === "http" ? hook.method : undefined, status: result.status, attempts: n, error: result.error }, "webhook failed");
        return;
      }
      await sleep(hook.retryDelayMs ?? Math.min(this.opts.backoffBaseMs * 2 ** (n - 1), this.opts.backoffCapMs));
    }
  }
}

// One dispatcher per process, shared by server.ts's fast path and the Next route
// handler (separate module copies), so drainWebhooks() sees every delivery.
const g = globalThis as unknown as { __polymockWebhooks?: WebhookDispatcher };

export function webhookDispatcher(): WebhookDispatcher {
  g.__polymockWebhooks ??= new WebhookDispatcher();
  return g.__polymockWebhooks;
}

export function fireWebhooks(hooks: RenderedWebhook[], origin: WebhookOrigin): void {
  if (hooks.length > 0) webhookDispatcher().fire(hooks, origin);
}

/** Delivers `async: false` webhooks before the stub answers (bounded by each one's timeout). */
export function awaitWebhooks(hooks: RenderedWebhook[], origin: WebhookOrigin): Promise<void> {
  return hooks.length > 0 ? webhookDispatcher().awaitDeliveries(hooks, origin) : Promise.resolve();
}

/** For shutdown: waits for the deliveries in flight (server.ts bounds the wait). */
export function drainWebhooks(): Promise<void> {
  return webhookDispatcher().drain();
}
