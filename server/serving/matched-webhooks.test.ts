// The serving core's choice of a matched mock's webhooks: trigger against the
// answer's status, async: false before the answer, the rest after it, chained
// when several mocks answer one request. The dispatcher itself is replaced.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { RenderedWebhook } from "@/server/engine/engine";
import { awaitWebhooks, fireWebhooks } from "@/server/services/webhooks";
import type { Matched } from "./matched";
import { addAfterSend, dispatchWebhooks, type AfterSend } from "./matched-webhooks";
import type { ServingScope } from "./scope";

vi.mock("@/server/services/webhooks", () => ({ fireWebhooks: vi.fn(), awaitWebhooks: vi.fn(() => Promise.resolve()) }));

const scope = { namespace: "ns", requestId: "r1" } as ServingScope;
const hook = (url: string, trigger: RenderedWebhook["trigger"], async = true) => ({ url, trigger, async }) as RenderedWebhook;
const matched = (webhooks: RenderedWebhook[], id = "m1") => ({ mock: { id }, webhooks, webhookErrors: [] }) as unknown as Matched;
const urls = (hooks: unknown) => (hooks as RenderedWebhook[]).map((h) => h.url);

beforeEach(() => vi.clearAllMocks());

describe("dispatchWebhooks", () => {
  const all = [hook("s", "on_success"), hook("e", "on_error"), hook("a", "always"), hook("sync-s", "on_success", false), hook("sync-e", "on_error", false)];

  it.each([
    [200, ["s", "a"], ["sync-s"]],
    [302, ["s", "a"], ["sync-s"]],
    [404, ["e", "a"], ["sync-e"]],
    [503, ["e", "a"], ["sync-e"]],
  ])("an answer of %i sends %j after it and waits for %j before it", async (status, after, before) => {
    const out: AfterSend = {};
    const hold = dispatchWebhooks(scope, matched(all), status, out);
    expect(hold).toBeInstanceOf(Promise);
    expect(urls(vi.mocked(awaitWebhooks).mock.calls[0][0])).toEqual(before);
    expect(fireWebhooks).not.toHaveBeenCalled();
    out.afterSend!();
    expect(urls(vi.mocked(fireWebhooks).mock.calls[0][0])).toEqual(after);
    expect(vi.mocked(fireWebhooks).mock.calls[0][1]).toEqual({ namespace: "ns", mockId: "m1", requestId: "r1" });
  });

  it("a mock without webhooks, or none triggered, costs neither a promise nor a callback", () => {
    const out: AfterSend = {};
    expect(dispatchWebhooks(scope, matched([]), 200, out)).toBeUndefined();
    expect(dispatchWebhooks(scope, matched([hook("e", "on_error")]), 200, out)).toBeUndefined();
    expect(out.afterSend).toBeUndefined();
    expect(awaitWebhooks).not.toHaveBeenCalled();
  });

  it("several mocks of one answer each get their webhooks started, in order", () => {
    const out: AfterSend = {};
    dispatchWebhooks(scope, matched([hook("first", "always")], "a"), 200, out);
    dispatchWebhooks(scope, matched([hook("second", "always")], "b"), 200, out);
    out.afterSend!();
    expect(vi.mocked(fireWebhooks).mock.calls.map(([hooks, origin]) => [urls(hooks), origin.mockId])).toEqual([
      [["first"], "a"],
      [["second"], "b"],
    ]);
  });
});

describe("addAfterSend", () => {
  it("runs what was there first, then the new callback", () => {
    const calls: string[] = [];
    const out: AfterSend = {};
    addAfterSend(out, () => calls.push("one"));
    addAfterSend(out, () => calls.push("two"));
    out.afterSend!();
    expect(calls).toEqual(["one", "two"]);
  });
});
