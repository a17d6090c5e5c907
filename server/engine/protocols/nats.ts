// NATS mocks (served by the protocol runner, protocol-runner/nats): a message
// on a subject the mock subscribes to, on the broker of the protocol server
// named by `nats.serverName` (any nats server of the namespace when the mock
// names none), sits on the route "/<serverName>/<subscription>", where the
// subscription is the mock's subject pattern and queue group — the runner
// subscribes once per distinct pair, and the mocks sharing it compete on
// their conditions. The concrete subject is the request header
// `x-nats-subject`. `conditions` look at the data (JSON when it parses,
// else the text); `headers` conditions at the NATS headers (lower-case names).
import type { NatsBlock } from "@/server/contracts/mock";
import type { z } from "zod";
import type { Placer } from "./placement";

type Block = z.infer<typeof NatsBlock>;

/** The method of every message's EngineRequest (nats mocks have no selector). */
export const NATS_METHOD = "MESSAGE";

/** The header carrying the subject a message was published on (the mock may subscribe with wildcards). */
export const SUBJECT_HEADER = "x-nats-subject";

export interface NatsSubscription {
  subject: string;
  queueGroup?: string;
}

export const subscriptionOf = (block: Block): NatsSubscription => ({ subject: block.subject, queueGroup: block.queueGroup || undefined });

/** A subscription's identity: the same key for every mock sharing it (subjects and queue groups hold no spaces). */
export const subscriptionKey = (s: NatsSubscription) => (s.queueGroup ? `${s.subject} ${s.queueGroup}` : s.subject);

// "*" survives encodeURIComponent but is the route index's rest wildcard.
const segment = (s: string) => encodeURIComponent(s).replace(/\*/g, "%2A");

export function natsRoute(serverName: string, key: string): string {
  return `/${serverName.startsWith(":") ? serverName : segment(serverName)}/${segment(key)}`;
}

export const placeNats: Placer = (def) => {
  const block = def.nats;
  if (!block) return null;
  return {
    route: natsRoute(block.serverName || ":server", subscriptionKey(subscriptionOf(block))),
    selector: null,
    conditions: { conditions: block.conditions, header: block.headers, sortArray: block.sortArray },
  };
};
