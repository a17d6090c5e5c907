import { describe, expect, it } from "vitest";
import { MockInput, natsSubjectReceives } from "@/server/contracts/mock";
import { natsRoute, placeNats, subscriptionKey } from "./nats";

const parse = (nats: unknown) => MockInput.safeParse({ nats, response: { payload: "x" } });

describe("the nats block", () => {
  it.each(["orders", "orders.created", "orders.*", "orders.>", "*.eu.>", "a.b.c"])("accepts the subject %s", (subject) => {
    expect(parse({ subject }).success).toBe(true);
  });

  it.each(["", "orders..created", "orders.>.x", "ord*rs", "or>", "with space", ".orders", "orders."])("refuses the subject %j", (subject) => {
    expect(parse({ subject }).success).toBe(false);
  });

  it("refuses wildcards in the subject a reply is published to, and unknown fields", () => {
    expect(parse({ subject: "a", outputSubject: "replies.*" }).success).toBe(false);
    expect(parse({ subject: "a", outputSubject: "replies.eu" }).success).toBe(true);
    expect(parse({ subject: "a", topic: "b" }).success).toBe(false);
  });
});

describe("placeNats", () => {
  it("routes by server and subscription (subject and queue group), with the conditions on data and headers", () => {
    const def = MockInput.parse({ nats: { subject: "orders.*", serverName: "eu", queueGroup: "workers", conditions: [{ path: "$.a", assertAction: "equals", value: 1 }], headers: [{ path: "x-t", assertAction: "equals", value: "y" }] } });
    expect(placeNats({ ...def, id: "m", namespace: "ns" } as never)).toEqual({
      route: "/eu/orders.%2A%20workers",
      selector: null,
      conditions: { conditions: [{ path: "$.a", assertAction: "equals", value: 1 }], header: [{ path: "x-t", assertAction: "equals", value: "y" }], sortArray: undefined },
    });
    expect(subscriptionKey({ subject: "orders.*" })).toBe("orders.*");
    expect(natsRoute(":server", "a.b")).toBe("/:server/a.b");
  });
});

describe("NATS subject reception and reply loops", () => {
  it.each([
    ["orders.*", "orders.new", true],
    ["orders.*", "orders.new.eu", false],
    ["orders.>", "orders.new.eu", true],
    ["orders.>", "orders", false],
    ["*.new", "orders.new", true],
    ["orders.new", "orders.old", false],
    [">", "anything.at.all", true],
  ])("%s receives %s: %s", (pattern, subject, expected) => {
    expect(natsSubjectReceives(pattern, subject)).toBe(expected);
  });

  it("refuses an outputSubject the mock's own subject receives (its replies would loop)", () => {
    const loop = MockInput.safeParse({ nats: { subject: "orders.>", outputSubject: "orders.reply" } });
    expect(loop.error?.issues[0]).toMatchObject({ path: ["nats", "outputSubject"], message: expect.stringMatching(/loop/) });
    expect(MockInput.safeParse({ nats: { subject: "orders.>", outputSubject: "audit.orders" } }).success).toBe(true);
  });
});
