import { connect } from "amqplib";
import { describe, expect, it } from "vitest";
import { brokerErrorReason, checkBrokerUrl, coalesceWrites, CONNECT_OPTIONS } from "./amqp";

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

describe("coalesceWrites", () => {
  // Guards an amqplib upgrade: the hook reaches into its internals and would otherwise go quietly missing.
  it("corks the socket around each pass of amqplib's muxer, and frames still reach the broker", async () => {
    const model = await connect(process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672", CONNECT_OPTIONS);
    try {
      coalesceWrites(model);
      const internals = (model as unknown as { connection: { muxer: { _readIncoming: { name: string } } } }).connection;
      expect(internals.muxer._readIncoming.name).toBe("corked");
      const ch = await model.createChannel();
      const { queue } = await ch.assertQueue("", { exclusive: true });
      for (let i = 0; i < 3; i++) ch.sendToQueue(queue, Buffer.from(`m${i}`));
      const got: string[] = [];
      for (let i = 0; i < 50 && got.length < 3; i++) {
        const m = await ch.get(queue, { noAck: true });
        if (m) got.push(m.content.toString());
        else await new Promise((r) => setTimeout(r, 20));
      }
      expect(got).toEqual(["m0", "m1", "m2"]);
    } finally {
      await model.close();
    }
  });
});
