// The runner's RabbitMQ module: one broker session (./broker-session.ts) per
// rabbitmq protocol server (../broker-module.ts), restarted when its URL,
// credentials or name change. The queues a session consumes follow the
// namespace's rabbitmq mocks: those whose serverName names the server, and
// those naming none (every rabbitmq server of their namespace consumes them,
// as an SMTP mock without serverName takes mail from every SMTP server).
import { sourceKey, sourceOf, type RabbitSource } from "@/server/engine/protocols/rabbitmq";
import { namespaceMocks } from "@/server/serving/mock-index";
import { brokerModule } from "../broker-module";
import type { ProtocolModule } from "../module";
import { BrokerSession } from "./broker-session";

/** The sources the rabbitmq mocks of `namespace` name for the server `serverName`, one per source. */
export async function sourcesFor(namespace: string, serverName: string): Promise<RabbitSource[]> {
  const index = await namespaceMocks(namespace);
  const out = new Map<string, RabbitSource>();
  for (const mock of index?.indexes.rabbitmq?.all() ?? []) {
    const block = mock.def.rabbitmq;
    if (!block || (block.serverName && block.serverName !== serverName)) continue;
    const source = sourceOf(block);
    out.set(sourceKey(source), source);
  }
  return [...out.values()];
}

export function rabbitmqModule(opts: { backoff?: { firstMs: number; maxMs: number } } = {}): ProtocolModule {
  return brokerModule({
    name: "rabbitmq",
    protocol: "rabbitmq",
    fingerprint: (row) => [row.url],
    open: (row, ctx) =>
      new BrokerSession({
        namespace: row.namespace.name,
        serverName: row.name,
        url: row.url ?? "",
        credentials: ctx.credentials,
        sources: () => sourcesFor(row.namespace.name, row.name),
        onState: ctx.onState,
        backoff: opts.backoff,
      }),
  });
}
