import { describe, expect, it } from "vitest";
import { brokerErrorReason, checkBrokerUrl } from "./amqp";

describe("checkBrokerUrl", () => {
  it.each([
    ["amqp://127.0.0.1:5672", undefined],
    ["amqps://broker.example.test/vhost", undefined],
    ["http://127.0.0.1:5672", /not an AMQP URL/],
    ["amqp://169.254.169.254:5672", /cloud-metadata/],
    ["amqp://metadata.google.internal", /cloud-metadata/],
  ])("%s", (url, problem) => {
    if (problem) expect(() => checkBrokerUrl(url)).toThrow(problem);
    else expect(checkBrokerUrl(url).href).toBe(url);
  });
});

describe("brokerErrorReason", () => {
  it.each([
    [Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }), "connection refused by 127.0.0.1:1"],
    [Object.assign(new Error("getaddrinfo ENOTFOUND nowhere"), { code: "ENOTFOUND" }), "host not found: 127.0.0.1:1"],
    [new Error('Handshake terminated by server: 403 (ACCESS-REFUSED) with message "ACCESS_REFUSED - Login was refused"'), "ACCESS_REFUSED: 127.0.0.1:1 refused the credentials"],
    [new Error("something else"), "127.0.0.1:1: something else"],
  ])("%s", (err, reason) => {
    expect(brokerErrorReason(err, "amqp://guest:secret@127.0.0.1:1")).toBe(reason);
  });
});
