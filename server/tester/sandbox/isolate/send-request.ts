// Inside the isolate: pm.sendRequest. The request leaves as plain JSON in the
// outbox; the host sends it (its own HTTP client and policy) and calls back
// in with the response, which the callback or the returned promise receives.
import type { IsolateResponse } from "../protocol";
import type { Run } from "./run";
import { ScriptResponse } from "./response";

function plain(v: unknown): unknown {
  if (typeof v === "string") return v;
  const text = JSON.stringify(v);
  return text === undefined ? null : JSON.parse(text);
}

export function makeSendRequest(run: Run, onError: (e: unknown) => void) {
  const sendRequest = function (req: unknown, callback?: unknown): Promise<unknown> | undefined {
    if (run.sendCount >= run.limits.maxSendRequests) throw new RangeError(`Too many requests: a script may call pm.sendRequest at most ${run.limits.maxSendRequests} times`);
    const id = ++run.sendCount;
    run.outbox.sends.push({ id, request: plain(req) });
    if (typeof callback === "function") {
      run.sends.set(id, { callback: callback as (err: unknown, res: unknown) => void });
      return undefined;
    }
    return new Promise((resolve, reject) => run.sends.set(id, { resolve, reject }));
  };
  return {
    sendRequest,
    /** The host's answer to request `id`: an error message, or the response as JSON. */
    deliver(id: number, error: string | null, responseJson: string | null): void {
      const entry = run.sends.get(id);
      if (!entry) return;
      run.sends.delete(id);
      const err = error === null ? null : new Error(error);
      const res = responseJson === null ? null : new ScriptResponse(JSON.parse(responseJson) as IsolateResponse);
      if (entry.callback) {
        try {
          entry.callback(err, res);
        } catch (e) {
          onError(e);
        }
      } else if (err) entry.reject?.(err);
      else entry.resolve?.(res);
    },
  };
}
