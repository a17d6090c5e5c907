// One nats protocol server's life on its broker: a connection (the nats
// client reconnects by itself once it has connected; a first connect that
// fails is retried here with back-off, 1 s doubling to 30 s), one
// subscription per subject and queue group its mocks name, and the replies.
// Core NATS delivers at most once, so a requester that times out asks again:
// a request carrying a `Nats-Msg-Id` (the header JetStream de-duplicates by)
// is served once, and a repeat of it gets the same reply again instead of a
// second serve. Semantics: docs/decisions.md, "Protocol runner", NATS.
import { ReconnectingSession } from "../reconnecting-session";
import { connect, headers as natsHeaders, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from "nats";
import { subscriptionKey, type NatsSubscription } from "@/server/engine/protocols/nats";
import { logger } from "@/server/lib/logger";
import { brokerReason, checkNatsUrl, resolveAllowed } from "./nats-url";
import { serveMessage, type NatsReply, type Received } from "./exchange";

export interface SessionConfig {
  namespace: string;
  serverName: string;
  url: string;
  credentials: { username?: string; password?: string } | null;
  /** The subscriptions to hold now (re-read on refresh()). */
  subscriptions(): Promise<NatsSubscription[]>;
  onState(state: "listening" | "error", reason: string | null): void;
  backoff?: { firstMs: number; maxMs: number };
}

/** Replies remembered by Nats-Msg-Id, for repeats of a request whose first reply was lost. */
const REPLIED_KEEP = 10_000;
export const MSG_ID_HEADER = "Nats-Msg-Id";

/** What serving a message gave: the reply to publish (if any), whether it goes to the request's inbox, and the after-send work. */
interface Served {
  reply?: NatsReply;
  toInbox?: boolean;
  afterSend?: () => void;
}

function headersOf(h: MsgHdrs | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!h) return out;
  for (const [name, values] of h) out[name] = values;
  return out;
}

export class NatsSession extends ReconnectingSession {
  private nc?: NatsConnection;
  private subs = new Map<string, Subscription>();
  private replies = new Map<string, Promise<Served>>();
  private readonly log = logger().child({ module: "nats" });

  constructor(private readonly config: SessionConfig) {
    super(config);
  }

  /** Subscribes to what the mocks name now (after a mock change); resolves once done. */
  refresh(): Promise<void> {
    return this.serial(() => this.syncSubscriptions());
  }

  async close() {
    await this.stopRetrying();
    const nc = this.nc;
    this.nc = undefined;
    await nc?.close().catch(() => {});
  }

  protected connectNow(): Promise<void> {
    return this.serial(async () => {
      if (this.closed || this.nc) return;
      try {
        const url = checkNatsUrl(this.config.url);
        await resolveAllowed(url.hostname);
        const creds = this.config.credentials;
        const nc = await connect({
          servers: this.config.url,
          name: `polymock ${this.config.namespace}/${this.config.serverName}`,
          // The runner's own replies never come back to its subscriptions (a reply subject a wildcard mock covers would loop).
          noEcho: true,
          reconnect: true,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 1000,
          timeout: 10_000,
          ...(creds?.username ? { user: creds.username, pass: creds.password ?? "" } : {}),
        });
        if (this.closed) {
          await nc.close();
          return;
        }
        this.nc = nc;
        this.connected();
        void this.watch(nc);
        await this.syncSubscriptions();
        this.report("listening", null);
      } catch (err) {
        const reason = brokerReason(err, this.config.url);
        this.log.warn({ serverName: this.config.serverName, reason }, "nats: cannot connect");
        this.report("error", reason);
        this.schedule();
      }
    });
  }

  /** Follows the client's own reconnects; a connection closed for good (not by us) is opened again with back-off. */
  private async watch(nc: NatsConnection) {
    void nc.closed().then((err) => {
      if (this.nc !== nc || this.closed) return;
      this.nc = undefined;
      this.subs.clear();
      this.report("error", err ? brokerReason(err, this.config.url) : "the connection to the broker closed; reconnecting");
      this.schedule();
    });
    for await (const s of nc.status()) {
      if (this.nc !== nc) return;
      if (s.type === "disconnect") this.report("error", "connection to the broker lost; reconnecting");
      else if (s.type === "reconnect") this.report("listening", null);
    }
  }

  private async syncSubscriptions() {
    const nc = this.nc;
    if (!nc) return;
    const wanted = new Map((await this.config.subscriptions()).map((s) => [subscriptionKey(s), s]));
    for (const [key, sub] of this.subs) {
      if (wanted.has(key)) continue;
      this.subs.delete(key);
      sub.unsubscribe();
    }
    for (const [key, s] of wanted) {
      if (this.subs.has(key)) continue;
      const sub = nc.subscribe(s.subject, { ...(s.queueGroup ? { queue: s.queueGroup } : {}), callback: (err, msg) => (err ? this.log.warn({ err, subject: s.subject }, "nats: subscription error") : this.onMessage(nc, key, msg)) });
      this.subs.set(key, sub);
    }
    // The server has the subscriptions before anyone is told they exist.
    await nc.flush();
  }

  private onMessage(nc: NatsConnection, key: string, msg: Msg) {
    const msgId = msg.headers?.get(MSG_ID_HEADER) || undefined;
    const remembered = msgId ? this.replies.get(msgId) : undefined;
    const served = remembered ?? this.serve(key, msg);
    if (msgId && !remembered) this.remember(msgId, served);
    void served
      .then((s) => {
        if (s.reply) {
          // A repeat's reply goes to the repeat's own inbox; an output subject stays what the mock names.
          const subject = s.toInbox ? msg.reply || s.reply.subject : s.reply.subject;
          const h = natsHeaders();
          for (const [name, value] of Object.entries(s.reply.headers)) h.set(name, value);
          nc.publish(subject, s.reply.data, { headers: h });
        }
        if (!remembered) s.afterSend?.();
      })
      .catch((err) => this.log.error({ err, serverName: this.config.serverName, subject: msg.subject }, "nats: message failed"));
  }

  private async serve(key: string, msg: Msg): Promise<Served> {
    const received: Received = { subscriptionKey: key, subject: msg.subject, data: msg.data, headers: headersOf(msg.headers), reply: msg.reply || undefined };
    const outcome = await serveMessage({ namespace: this.config.namespace, serverName: this.config.serverName }, received);
    if (outcome.kind !== "matched") return {};
    return { reply: outcome.reply, toInbox: !!received.reply && outcome.reply?.subject === received.reply, afterSend: outcome.afterSend };
  }

  private remember(msgId: string, reply: Promise<Served>) {
    this.replies.set(msgId, reply);
    if (this.replies.size > REPLIED_KEEP) this.replies.delete(this.replies.keys().next().value!);
  }
}
