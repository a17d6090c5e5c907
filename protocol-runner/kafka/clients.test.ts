import { afterEach, describe, expect, it } from "vitest";
import { BlockedTargetError } from "@/server/lib/ssrf";
import { checkBrokers, kafkaErrorReason } from "./clients";

describe("checkBrokers", () => {
  afterEach(() => {
    delete process.env.OUTBOUND_ALLOW_PRIVATE;
  });

  it("refuses an empty list and a broker that is not host:port", () => {
    expect(() => checkBrokers([])).toThrow(/no brokers/);
    expect(() => checkBrokers(["a:b:c"])).toThrow(/not host:port/);
  });

  it("brokers are user data: the outbound policy applies", () => {
    expect(() => checkBrokers(["127.0.0.1:9092"])).not.toThrow();
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    expect(() => checkBrokers(["127.0.0.1:9092"])).toThrow(BlockedTargetError);
    expect(() => checkBrokers(["169.254.169.254:9092"])).toThrow(BlockedTargetError);
  });
});

describe("kafkaErrorReason", () => {
  it.each([
    ["refused", Object.assign(new Error("Connection error: connect ECONNREFUSED 127.0.0.1:1"), {}), /^connection refused by b:1$/],
    ["unknown host", new Error("getaddrinfo ENOTFOUND nope"), /^host not found: b:1$/],
    ["timeout", new Error("Connection timeout"), /^no answer from b:1$/],
    ["anything else keeps its message", new Error("SASL PLAIN authentication failed"), /^b:1: SASL PLAIN authentication failed$/],
  ])("%s", (_, err, reason) => {
    expect(kafkaErrorReason(err, ["b:1"])).toMatch(reason);
  });

  it("a refusal by the outbound policy is given as is", () => {
    const blocked = { error: new BlockedTargetError("http://10.0.0.1:9092/", "private", "private address") };
    expect(kafkaErrorReason(new Error("Connection error"), ["b:1"], blocked)).toBe(blocked.error.message);
  });
});
