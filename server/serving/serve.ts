// The serving core's entry, the one way a request from any wire becomes an
// answer (ARCHITECTURE.md, "Serving core"): an adapter decodes its wire into
// an EngineRequest within a ServingScope, calls `serve`, encodes the result
// on its wire, and hands a match to `answered`, which records the hit and
// dispatches the mock's webhooks. A miss goes to `recordMiss` (./recorder.ts).
// Synchronous for the common mock: no promise, no closure per request.
import { handle, type EngineResult } from "@/server/engine/engine";
import type { ServedProtocol } from "@/server/engine/protocols";
import type { EngineRequest } from "@/server/engine/types";
import type { Matched } from "./matched";
import { dispatchWebhooks, type AfterSend } from "./matched-webhooks";
import { recordHit, type LoggedRequest } from "./recorder";
import type { ServingScope } from "./scope";

export type { Matched } from "./matched";
export { addAfterSend, type AfterSend } from "./matched-webhooks";
export { recordMiss, type LoggedRequest } from "./recorder";
export type { ServingScope } from "./scope";

/** Runs the engine over one protocol's mocks of the scope's namespace (synchronous for most mocks; await it). */
export function serve(protocol: ServedProtocol, scope: ServingScope, req: EngineRequest): EngineResult | Promise<EngineResult> {
  return handle(scope.index, req, scope.deps, protocol);
}

/**
 * What follows a match once the adapter has formed its answer `out`: the hit
 * is logged with `status` (and `response` when the log keeps the answer), and
 * the webhooks whose trigger fits `triggerStatus` (by default the same) are
 * dispatched. Returns `out`, or a promise of it while `async: false` webhooks
 * hold the answer; `out.afterSend` starts the others once the answer is sent.
 */
export function answered<O extends AfterSend>(
  scope: ServingScope,
  result: Matched,
  status: number,
  out: O,
  req: LoggedRequest,
  response?: { headers?: unknown; body?: unknown },
  triggerStatus = status,
): O | Promise<O> {
  recordHit(scope, result.mock, status, req, response);
  const hold = dispatchWebhooks(scope, result, triggerStatus, out);
  return hold ? hold.then(() => out) : out;
}
