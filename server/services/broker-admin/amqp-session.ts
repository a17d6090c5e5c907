// One short-lived AMQP connection per broker-admin call (amqplib), closed
// whatever happens, within the call's deadline. Nothing stays open between
// calls: the screen is used now and then, and a kept connection would hold a
// namespace's credentials in memory for nothing.
import { type Channel, type ChannelModel, connect } from "amqplib";
import { AppError } from "@/server/errors";
import { safeLookup } from "@/server/lib/ssrf";
import type { RabbitTarget } from "./broker-target";
import { toAppError, withDeadline } from "./upstream-error";

export interface AmqpSession {
  model: ChannelModel;
  /** A fresh channel: a broker error closes the channel it happened on, so one per risky step. */
  channel(): Promise<Channel>;
}

/** The broker's channel-level answers that are about the request, not the broker's health. */
function brokerAnswer(err: unknown): AppError | undefined {
  const code = (err as { code?: unknown }).code;
  const text = err instanceof Error ? (/with message "([^"]+)"/.exec(err.message)?.[1] ?? err.message) : String(err);
  if (code === 404) return new AppError("not_found", `RabbitMQ: ${text}`);
  if (code === 406 || code === 405) return new AppError("conflict", `RabbitMQ: ${text}`);
  if (code === 403 && !/Handshake/i.test(String((err as Error).message))) return new AppError("broker_access_refused", `RabbitMQ: ${text}`, { status: 403 });
  return undefined;
}

export async function withAmqp<T>(target: RabbitTarget, work: (session: AmqpSession) => Promise<T>): Promise<T> {
  const what = `RabbitMQ at ${target.display}`;
  const opened: { model?: ChannelModel } = {};
  try {
    return await withDeadline(
      target.timeoutMs,
      what,
      async () => {
        const model = (opened.model = await connect(target.url, { lookup: safeLookup, timeout: target.timeoutMs }));
        // Errors arrive through the promises below; an 'error' event nobody listens to would crash the process.
        model.on("error", () => {});
        const channel = async () => {
          const ch = await model.createChannel();
          ch.on("error", () => {});
          return ch;
        };
        return work({ model, channel });
      },
      async () => {
        const model = opened.model;
        opened.model = undefined;
        await model?.close().catch(() => {});
      },
    );
  } catch (err) {
    throw toAppError(err, what, "url", brokerAnswer);
  }
}
