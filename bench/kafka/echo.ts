// Q2's baseline: a plain kafkajs echo consumer (a process of its own, like the
// runner) — per batch, one produce of the replies (same key, acks from all
// replicas) and a commit, with the same fetch wait as the runner.
// Usage: tsx bench/kafka/echo.ts <brokers> <input topic> <output topic> <fetch wait ms>
import kafkajs from "kafkajs";

const { Kafka, logLevel, Partitioners } = kafkajs;
const [brokers, input, output, waitMs] = process.argv.slice(2);
const kafka = new Kafka({ brokers: [brokers], logLevel: logLevel.NOTHING });
const producer = kafka.producer({ allowAutoTopicCreation: true, createPartitioner: Partitioners.DefaultPartitioner });
const consumer = kafka.consumer({ groupId: `echo-${input}`, allowAutoTopicCreation: true, maxWaitTimeInMs: Number(waitMs), sessionTimeout: 10_000, heartbeatInterval: 1000 });
await producer.connect();
await consumer.connect();
await consumer.subscribe({ topic: input, fromBeginning: true });
await consumer.run({
  autoCommit: false,
  partitionsConsumedConcurrently: 4,
  eachBatch: async ({ batch, commitOffsetsIfNecessary, resolveOffset }) => {
    const messages = batch.messages.map((m) => {
      const n = (JSON.parse(m.value!.toString()) as { n: number }).n;
      return { key: m.key, value: JSON.stringify({ echo: n }) };
    });
    await producer.send({ topic: output, acks: -1, messages });
    const last = batch.messages[batch.messages.length - 1].offset;
    await commitOffsetsIfNecessary({ topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: (BigInt(last) + 1n).toString() }] }] });
    resolveOffset(last);
  },
});
console.log("ready");
process.on("SIGTERM", () => void consumer.disconnect().finally(() => process.exit(0)));
