// What every adapter does with a matched mock's webhooks: start them once the
// answer is sent, and log the ones whose templates could not be rendered.
import type { EngineResult } from "@/server/engine/engine";
import { logger } from "@/server/lib/logger";
import { fireWebhooks } from "@/server/services/webhooks";
import type { StubContext } from "./stub-context";

export function webhooksAfterSend(ctx: StubContext, result: Extract<EngineResult, { matched: true }>): (() => void) | undefined {
  if (result.webhookErrors.length > 0) logger().warn({ requestId: ctx.requestId, namespace: ctx.namespace, mockId: result.mock.id, errors: result.webhookErrors }, "webhooks not rendered");
  if (result.webhooks.length === 0) return undefined;
  return () => fireWebhooks(result.webhooks, { namespace: ctx.namespace, mockId: result.mock.id, requestId: ctx.requestId });
}

/** Runs several afterSend callbacks (a batch answered at once). */
export function allAfterSend(fns: ((() => void) | undefined)[]): (() => void) | undefined {
  const list = fns.filter((f): f is () => void => f !== undefined);
  if (list.length === 0) return undefined;
  return () => list.forEach((f) => f());
}
