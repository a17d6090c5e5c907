import { describe, expect, it } from "vitest";
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { parseRabbitBody, placeRabbitmq, rabbitmqRoute, rabbitReply, sourceKey, sourceOf } from "./rabbitmq";

const def = (rabbitmq: unknown) => ({ ...MockInput.parse({ rabbitmq }), id: "m", namespace: "ns" }) as MockDefinition;

describe("placeRabbitmq", () => {
  it.each([
    ["a queue on a named server", { queue: "orders", serverName: "main" }, "/main/q%3Aorders"],
    ["any server of the namespace", { queue: "orders" }, "/:server/q%3Aorders"],
    ["a queue name with '/' and '*' stays one segment", { queue: "a/b*", serverName: "main" }, "/main/q%3Aa%2Fb%2A"],
    ["an exchange and routing key alone", { exchange: "events", routingKey: "order.*", serverName: "main" }, `/main/${encodeURIComponent("x:events\u0000order.")}%2A`],
  ])("%s", (_, block, route) => {
    expect(placeRabbitmq(def(block))?.route).toBe(route);
  });

  it("body conditions stay conditions, header conditions become header conditions", () => {
    const placed = placeRabbitmq(def({ queue: "q", conditions: [{ path: "$.a", assertAction: "equals", value: 1 }], headers: [{ path: "X-Region", assertAction: "equals", value: "eu" }] }));
    expect(placed?.conditions.conditions).toHaveLength(1);
    expect(placed?.conditions.header?.[0].path).toBe("X-Region");
    expect(placed?.selector).toBeNull();
  });

  it("a queue with an exchange is consumed from the queue, bound with the routing key (the queue name by default)", () => {
    expect(sourceOf(def({ queue: "q", exchange: "x" }).rabbitmq!)).toEqual({ kind: "queue", queue: "q", exchange: "x", routingKey: "q" });
    expect(sourceKey(sourceOf(def({ queue: "q", exchange: "x" }).rabbitmq!))).toBe(sourceKey(sourceOf(def({ queue: "q" }).rabbitmq!)));
    expect(rabbitmqRoute("s", "q:q")).toBe("/s/q%3Aq");
  });
});

describe("parseRabbitBody", () => {
  it.each([
    ["JSON without a content type", '{"a":1}', undefined, { a: 1 }, undefined],
    ["text", "hello", undefined, "hello", undefined],
    ["text that starts like JSON", "{oops", undefined, "{oops", undefined],
    ["claimed JSON that is not", "{oops", "application/json", "{oops", /not valid JSON/],
    ["a JSON number", "42", "text/plain", 42, undefined],
  ])("%s", (_, text, contentType, body, error) => {
    const parsed = parseRabbitBody(Buffer.from(text), contentType);
    expect(parsed.body).toEqual(body);
    if (error) expect(parsed.jsonError).toMatch(error);
    else expect(parsed.jsonError).toBeUndefined();
  });
});

describe("rabbitReply", () => {
  it("a string as is (text/plain), anything else as JSON, nothing for no payload", () => {
    expect(rabbitReply("hi")).toEqual({ content: Buffer.from("hi"), contentType: "text/plain; charset=utf-8" });
    expect(rabbitReply({ a: 1 })).toEqual({ content: Buffer.from('{"a":1}'), contentType: "application/json" });
    expect(rabbitReply(undefined)).toBeUndefined();
  });
});
