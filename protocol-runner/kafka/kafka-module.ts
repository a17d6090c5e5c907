// The runner's Kafka module: one session (./server-session.ts) per kafka
// protocol server (../broker-module.ts), restarted when its brokers,
// credentials, options or name change. The topics a session consumes follow
// the namespace's kafka mocks: those whose serverName names the server, and
// those naming none (every kafka server of their namespace consumes them),
// grouped by consumer group.
import type { ISocketFactory } from "kafkajs";
import { groupOf } from "@/server/engine/protocols/kafka";
import { namespaceMocks } from "@/server/serving/mock-index";
import { brokerModule } from "../broker-module";
import type { ProtocolModule } from "../module";
import { KafkaSession } from "./server-session";

/** Topics per consumer group ("" = the server's own) of the kafka mocks of `namespace` for the server `serverName`. */
export async function subscriptionsFor(namespace: string, serverName: string): Promise<Map<string, string[]>> {
  const index = await namespaceMocks(namespace);
  const out = new Map<string, Set<string>>();
  for (const mock of index?.indexes.kafka?.all() ?? []) {
    const block = mock.def.kafka;
    if (!block || (block.serverName && block.serverName !== serverName)) continue;
    const group = groupOf(block) ?? "";
    let topics = out.get(group);
    if (!topics) out.set(group, (topics = new Set()));
    topics.add(block.topic);
  }
  return new Map([...out].map(([g, t]) => [g, [...t]]));
}

export interface KafkaModuleOptions {
  backoff?: { firstMs: number; maxMs: number };
  /** Tests: wraps every socket factory (to cut connections abruptly). */
  wrapSockets?: (factory: ISocketFactory) => ISocketFactory;
  /** See FETCH_MAX_WAIT_MS. */
  fetchMaxWaitMs?: number;
}

export function kafkaModule(opts: KafkaModuleOptions = {}): ProtocolModule {
  return brokerModule({
    name: "kafka",
    protocol: "kafka",
    fingerprint: (row) => [row.brokers, row.options],
    open: (row, ctx) =>
      new KafkaSession({
        serverId: row.id,
        namespace: row.namespace.name,
        serverName: row.name,
        brokers: row.brokers,
        credentials: ctx.credentials,
        options: (row.options ?? {}) as Record<string, unknown>,
        subscriptions: () => subscriptionsFor(row.namespace.name, row.name),
        onState: ctx.onState,
        backoff: opts.backoff,
        wrapSockets: opts.wrapSockets,
        fetchMaxWaitMs: opts.fetchMaxWaitMs,
      }),
  });
}
