// The runner's NATS module: one session (./nats-session.ts) per nats protocol
// server (../broker-module.ts), restarted when its URL, credentials or name
// change. The subscriptions a session holds follow the namespace's nats
// mocks: those whose serverName names the server, and those naming none
// (every nats server of the namespace serves them).
import { subscriptionKey, subscriptionOf, type NatsSubscription } from "@/server/engine/protocols/nats";
import { namespaceMocks } from "@/server/serving/mock-index";
import { brokerModule } from "../broker-module";
import type { ProtocolModule } from "../module";
import { NatsSession } from "./nats-session";

/** The subscriptions the nats mocks of `namespace` name for the server `serverName`, one per subject and queue group. */
export async function subscriptionsFor(namespace: string, serverName: string): Promise<NatsSubscription[]> {
  const index = await namespaceMocks(namespace);
  const out = new Map<string, NatsSubscription>();
  for (const mock of index?.indexes.nats?.all() ?? []) {
    const block = mock.def.nats;
    if (!block || (block.serverName && block.serverName !== serverName)) continue;
    const s = subscriptionOf(block);
    out.set(subscriptionKey(s), s);
  }
  return [...out.values()];
}

export function natsModule(opts: { backoff?: { firstMs: number; maxMs: number } } = {}): ProtocolModule {
  return brokerModule({
    name: "nats",
    protocol: "nats",
    fingerprint: (row) => [row.url],
    open: (row, ctx) =>
      new NatsSession({
        namespace: row.namespace.name,
        serverName: row.name,
        url: row.url ?? "",
        credentials: ctx.credentials,
        subscriptions: () => subscriptionsFor(row.namespace.name, row.name),
        onState: ctx.onState,
        backoff: opts.backoff,
      }),
  });
}
