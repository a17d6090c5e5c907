// Replies a mock produces to another cluster (`kafka.outputBrokers`): one
// producer per broker list, connected on first use and dropped when a send
// fails (the next reply connects anew). The list is user data, so every socket
// passes the outbound policy like the server's own.
import type { ISocketFactory, Producer, TopicMessages } from "kafkajs";
import kafkajs from "kafkajs";
import { checkBrokers, kafkaClient } from "./clients";

const { Partitioners } = kafkajs;

export class OutputClusters {
  private open = new Map<string, Promise<Producer>>();

  constructor(private readonly wrapSockets?: (factory: ISocketFactory) => ISocketFactory) {}

  private get(brokers: string[]): Promise<Producer> {
    const key = brokers.join(",");
    let out = this.open.get(key);
    if (!out) {
      out = (async () => {
        checkBrokers(brokers);
        const producer = kafkaClient({ clientId: "polymock-output", brokers, wrapSockets: this.wrapSockets }).producer({
          allowAutoTopicCreation: true,
          createPartitioner: Partitioners.DefaultPartitioner,
        });
        await producer.connect();
        return producer;
      })();
      this.open.set(key, out);
      out.catch(() => this.open.delete(key));
    }
    return out;
  }

  /** The server's credentials are not sent along: outputBrokers names another, unauthenticated cluster. */
  async send(brokers: string[], topicMessages: TopicMessages[]) {
    const key = brokers.join(",");
    const producer = await this.get(brokers);
    try {
      await producer.sendBatch({ acks: -1, topicMessages });
    } catch (err) {
      this.open.delete(key);
      void producer.disconnect().catch(() => {});
      throw err;
    }
  }

  async close() {
    const all = [...this.open.values()];
    this.open.clear();
    for (const p of all) await p.then((producer) => producer.disconnect()).catch(() => {});
  }
}
