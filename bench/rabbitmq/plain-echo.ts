// Q1's baseline: the plain amqplib RPC consumer anyone would write: prefetch
// as the runner's consumer uses, the fixed reply sent to replyTo with the
// request's correlationId, then the ack (no transaction). TCP_NODELAY on, as
// the runner has it: with amqplib's default the echo waits out 40 ms delayed
// ACKs too. It prints "ready" once consuming.
import { connect } from "amqplib";
import { Q1_REPLY } from "./shape";

const [url, queue, prefetchArg] = process.argv.slice(2);
const model = await connect(url, { noDelay: true });
const channel = await model.createChannel();
await channel.assertQueue(queue, { durable: true });
await channel.prefetch(Number(prefetchArg));
const reply = Buffer.from(JSON.stringify(Q1_REPLY));
await channel.consume(queue, (m) => {
  if (!m) return;
  if (m.properties.replyTo) channel.sendToQueue(m.properties.replyTo, reply, { correlationId: m.properties.correlationId, contentType: "application/json" });
  channel.ack(m);
});
process.stdout.write("ready\n");
process.on("SIGTERM", () => void model.close().finally(() => process.exit(0)));
