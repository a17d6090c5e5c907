import { describe, expect, it } from "vitest";
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { kafkaReplyValue, kafkaRoute, parseKafkaValue, placeKafka, splitBrokerList } from "./kafka";

const def = (kafka: unknown) => ({ ...MockInput.parse({ kafka }), id: "m", namespace: "ns" }) as MockDefinition;

describe("placeKafka", () => {
  it.each([
    ["a topic on a named server, its own group", { topic: "orders", serverName: "main" }, "/main/~/orders"],
    ["any server of the namespace", { topic: "orders" }, "/:server/~/orders"],
    ["a consumer group of its own", { topic: "orders", serverName: "main", consumerGroup: "billing" }, "/main/billing/orders"],
    ["'/', '*' and '~' stay inside their segment", { topic: "a/b*", serverName: "main", consumerGroup: "~" }, "/main/%7E/a%2Fb%2A"],
  ])("%s", (_, block, route) => {
    expect(placeKafka(def(block))?.route).toBe(route);
  });

  it("value conditions stay conditions, header conditions (the key among them) become header conditions; no selector", () => {
    const placed = placeKafka(def({ topic: "t", conditions: [{ path: "$.a", assertAction: "equals", value: 1 }], headers: [{ path: "kafka-key", assertAction: "equals", value: "k" }] }));
    expect(placed?.conditions.conditions).toHaveLength(1);
    expect(placed?.conditions.header?.[0].path).toBe("kafka-key");
    expect(placed?.selector).toBeNull();
  });

  it("a record on the own group's route is not on a named group's", () => {
    expect(kafkaRoute("s", undefined, "t")).not.toBe(kafkaRoute("s", "g", "t"));
  });
});

describe("parseKafkaValue", () => {
  it.each([
    ["JSON", '{"a":1}', undefined, { a: 1 }, undefined],
    ["text", "hello", undefined, "hello", undefined],
    ["text that starts like a JSON object is not JSON", "{oops", undefined, "{oops", /not valid JSON/],
    ["a content-type header claiming JSON", "oops", "application/json", "oops", /not valid JSON/],
    ["a JSON number", "42", undefined, 42, undefined],
    ["a number-like text", "42abc", undefined, "42abc", undefined],
  ])("%s", (_, text, contentType, body, error) => {
    const parsed = parseKafkaValue(Buffer.from(text), contentType);
    expect(parsed.body).toEqual(body);
    if (error) expect(parsed.jsonError).toMatch(error);
    else expect(parsed.jsonError).toBeUndefined();
  });

  it("a null value (a tombstone) has no body", () => {
    expect(parseKafkaValue(null, undefined)).toEqual({ body: undefined, text: "" });
  });
});

describe("replies and broker lists", () => {
  it("a string payload is sent as is, anything else as JSON, nothing when absent", () => {
    expect(kafkaReplyValue("hi")?.toString()).toBe("hi");
    expect(kafkaReplyValue({ a: 1 })?.toString()).toBe('{"a":1}');
    expect(kafkaReplyValue(undefined)).toBeUndefined();
  });

  it("splits a comma-separated broker list", () => {
    expect(splitBrokerList(" a:9092, b:9093 ,,")).toEqual(["a:9092", "b:9093"]);
  });
});
