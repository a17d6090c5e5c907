// Replies a mock sends to another broker (`rabbitmq.outputURL`): one
// connection with a confirm channel per URL, opened on first use and dropped
// when it fails (the next reply opens a new one). The URL is user data, so it
// passes the outbound policy (server/lib/ssrf.ts) like a webhook's.
import { connect, type ChannelModel, type ConfirmChannel } from "amqplib";
import type { Reply } from "./exchange";
import { checkBrokerUrl, CONNECT_OPTIONS, confirmPublish, ensureQueue, withChannel } from "./amqp";

interface Output {
  model: ChannelModel;
  channel: ConfirmChannel;
  declared: Set<string>;
}

export class OutputBrokers {
  private open = new Map<string, Promise<Output>>();

  private get(url: string): Promise<Output> {
    let out = this.open.get(url);
    if (!out) {
      out = (async () => {
        checkBrokerUrl(url);
        const model = await connect(url, CONNECT_OPTIONS);
        model.on("error", () => {});
        const channel = await model.createConfirmChannel();
        channel.on("error", () => {});
        const drop = () => {
          if (this.open.get(url) === out) this.open.delete(url);
          void model.close().catch(() => {});
        };
        model.on("close", drop);
        channel.on("close", drop);
        return { model, channel, declared: new Set<string>() };
      })();
      this.open.set(url, out);
      out.catch(() => this.open.delete(url));
    }
    return out;
  }

  async publish(reply: Reply & { url?: string }) {
    const out = await this.get(reply.url!);
    const key = `${reply.queue}\u0000${reply.exchange}\u0000${reply.routingKey}`;
    if (reply.queue && !out.declared.has(key)) {
      await ensureQueue(out.model, reply.queue);
      if (reply.exchange) await withChannel(out.model, (ch) => ch.bindQueue(reply.queue!, reply.exchange, reply.routingKey));
      out.declared.add(key);
    }
    await confirmPublish(out.channel, reply);
  }

  async close() {
    const all = [...this.open.values()];
    this.open.clear();
    for (const out of all) await out.then((o) => o.model.close()).catch(() => {});
  }
}
