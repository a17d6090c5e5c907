// The protocol-server form's values as the contract's create and update
// inputs: fields of the other kind are sent empty, options per protocol,
// credentials write-only (typed replaces, "clear" removes, nothing keeps).
import { describe, expect, it } from "vitest";
import { addressOf, CreateServerForm, emptyValues, type ServerFormValues, UpdateServerForm, valuesFrom } from "./server-form-model";

const form = (patch: Partial<ServerFormValues> = {}): ServerFormValues => ({ ...emptyValues(), name: "orders", ...patch });

describe("CreateServerForm", () => {
  it.each([
    ["tcp with newline framing", form({ port: "9000" }), { protocol: "tcp", port: 9000, host: null, url: null, brokers: [], options: { framing: "newline" } }],
    ["tcp raw keeps its quiet pause", form({ port: "9000", options: { ...emptyValues().options, framing: "raw", idleMs: "250" } }), { options: { framing: "raw", idleMs: 250 } }],
    ["udp has no options", form({ protocol: "udp", port: "9001", host: "127.0.0.1" }), { protocol: "udp", host: "127.0.0.1", options: {} }],
    ["smtp with auth and credentials", form({ protocol: "smtp", port: "2525", options: { ...emptyValues().options, auth: true }, credentials: { username: "robot", password: "pw" } }), { options: { auth: true, starttls: false }, credentials: { username: "robot", password: "pw" } }],
    ["kafka brokers, one per line or comma-separated; no port", form({ protocol: "kafka", port: "9000", brokers: "a:9092\nb:9092, c:9092" }), { port: null, brokers: ["a:9092", "b:9092", "c:9092"] }],
    ["nats url", form({ protocol: "nats", url: " nats://localhost:4222 " }), { url: "nats://localhost:4222", brokers: [] }],
  ])("%s", (_, values, expected) => {
    const parsed = CreateServerForm.safeParse(values);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data).toMatchObject(expected);
  });

  it.each([
    ["a listener without a port", form(), "port", "required for tcp"],
    ["a port that is not a number", form({ port: "abc" }), "port", undefined],
    ["kafka without brokers", form({ protocol: "kafka" }), "brokers", "required for kafka: at least one host:port"],
    ["a name with spaces", form({ name: "my server", port: "9000" }), "name", undefined],
  ])("refuses %s on the field", (_, values, field, message) => {
    const parsed = CreateServerForm.safeParse(values);
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues.find((i) => i.path[0] === field);
    expect(issue).toBeDefined();
    if (message) expect(issue!.message).toBe(message);
  });
});

describe("UpdateServerForm credentials", () => {
  it.each([
    ["nothing typed keeps them", {}, undefined],
    ["clear removes them", { clearCredentials: true }, null],
    ["typed ones replace them, even with clear ticked", { clearCredentials: true, credentials: { username: "", password: "new" } }, { password: "new" }],
  ])("%s", (_, patch, expected) => {
    const parsed = UpdateServerForm.parse(form({ protocol: "smtp", port: "2525", ...patch }));
    expect(parsed.credentials).toEqual(expected);
  });
});

describe("valuesFrom and addressOf", () => {
  const view = { id: "00000000-0000-4000-8000-000000000000", namespace: "ns", name: "orders", protocol: "tcp" as const, host: null, port: 9000, url: null, brokers: [], options: { framing: "raw", idleMs: 50 }, hasCredentials: false, state: "listening" as const, stateReason: null, stateAt: null, createdAt: "", updatedAt: "" };
  it("a stored server fills the form, options included", () => {
    expect(valuesFrom(view)).toMatchObject({ protocol: "tcp", port: "9000", host: "", options: { framing: "raw", idleMs: "50" } });
  });
  it.each([
    ["listener on the runner's host", view, "*:9000"],
    ["kafka", { ...view, protocol: "kafka" as const, port: null, brokers: ["a:1", "b:2"] }, "a:1, b:2"],
    ["rabbitmq", { ...view, protocol: "rabbitmq" as const, port: null, url: "amqp://mq:5672" }, "amqp://mq:5672"],
  ])("%s", (_, s, expected) => expect(addressOf(s)).toBe(expected));
});
