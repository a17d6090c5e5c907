// A matched mock's webhooks, the same for every protocol: `trigger` is judged
// on the status the answer carries, `async: false` ones are delivered before
// the answer (each bounded by its timeout), the others start once it is sent,
// and webhooks whose templates could not render are logged.
import { webhookTriggered, type RenderedWebhook } from "@/server/engine/engine";
import { logger } from "@/server/lib/logger";
import { awaitWebhooks, fireWebhooks } from "@/server/services/webhooks";
import type { Matched } from "./matched";
import type { ServingScope } from "./scope";

/** What an adapter's answer carries for the core: a callback its wire runs once the answer is sent. */
export interface AfterSend {
  afterSend?: () => void;
}

/**
 * Dispatches `result`'s webhooks for an answer with `status`. Sets (or chains
 * onto) `out.afterSend` for those sent after the answer; returns a promise
 * when some must be delivered before it, undefined otherwise.
 */
export function dispatchWebhooks(scope: ServingScope, result: Matched, status: number, out: AfterSend): Promise<void> | undefined {
  if (result.webhookErrors.length > 0) logger().warn({ requestId: scope.requestId, namespace: scope.namespace, mockId: result.mock.id, errors: result.webhookErrors }, "webhooks not rendered");
  const hooks = result.webhooks;
  if (hooks.length === 0) return undefined;
  let before: RenderedWebhook[] | undefined;
  let after: RenderedWebhook[] | undefined;
  for (const hook of hooks) {
    if (!webhookTriggered(hook.trigger, status)) continue;
    if (hook.async) (after ??= []).push(hook);
    else (before ??= []).push(hook);
  }
  const origin = { namespace: scope.namespace, mockId: result.mock.id, requestId: scope.requestId };
  if (after) {
    const hooksAfter = after;
    addAfterSend(out, () => fireWebhooks(hooksAfter, origin));
  }
  return before && awaitWebhooks(before, origin);
}

/** Adds a callback to run once the answer is sent, after any already there (several mocks can answer one request: GraphQL fields, an MCP batch). */
export function addAfterSend(out: AfterSend, fn: () => void): void {
  const previous = out.afterSend;
  out.afterSend = previous
    ? () => {
        previous();
        fn();
      }
    : fn;
}
