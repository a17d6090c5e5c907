// /api/v1/api-tester/kafka/* against librdkafka's mock cluster (kcat): metadata,
// topics with counts, produce and peek, consumer groups with lag from a real
// kafkajs consumer group. The mock cluster names a controller it does not list
// and lacks ListGroups, so topic create/delete and the group list answer 502
// with that reason: the honest error path (docs/decisions.md).
import { randomUUID } from "node:crypto";
import kafkajs from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as metadataRoute from "@/app/api/v1/api-tester/kafka/metadata/route";
import * as topicsRoute from "@/app/api/v1/api-tester/kafka/topics/route";
import * as createTopicRoute from "@/app/api/v1/api-tester/kafka/topics/create/route";
import * as deleteTopicRoute from "@/app/api/v1/api-tester/kafka/topics/delete/route";
import * as groupsRoute from "@/app/api/v1/api-tester/kafka/consumer-groups/route";
import * as publishRoute from "@/app/api/v1/api-tester/kafka/publish/route";
import * as readRoute from "@/app/api/v1/api-tester/kafka/read/route";
import { type KafkaMockCluster, startKafkaMockCluster } from "@/protocol-runner/kafka/mock-cluster";
import { actorFor, call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { resolveNamespace } from "../namespace-access";
import { createProtocolServer } from "../protocol-servers";

useTestDatabase();

const NS = "brokers-kafka";
const run = randomUUID().slice(0, 8);
const topic = `orders-${run}`;

let cluster: KafkaMockCluster;
let owner: string;
let viewer: string;
let outsider: string;

type Handler = typeof publishRoute.POST;
const post = (handler: Handler, path: string, body: object, cookie = owner) => call(handler, `/api/v1/api-tester/kafka/${path}`, { method: "POST", cookie, body: { namespace: NS, ...body } });

beforeAll(async () => {
  cluster = await startKafkaMockCluster();
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  const v = await makeUser({ namespaces: { [NS]: "viewer" } });
  const x = await makeUser();
  owner = await sessionCookie(o.user.id);
  viewer = await sessionCookie(v.user.id);
  outsider = await sessionCookie(x.user.id);
  const scope = await resolveNamespace(actorFor(o.user), NS);
  await createProtocolServer(scope, { name: "kfk", protocol: "kafka", brokers: [cluster.brokers] });
}, 30_000);

afterAll(async () => {
  await cluster?.stop();
});

describe("Kafka admin against the kcat mock cluster", () => {
  it("produces records, lists the topic with its partitions and counts, and peeks newest and oldest", async () => {
    for (const n of [1, 2, 3]) {
      const res = await post(publishRoute.POST, "publish", { serverName: "kfk", topic, key: `k${n}`, value: `{"n":${n}}`, headers: { trace: `t${n}` }, partition: 0 });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ ok: true, topic, partition: 0, offset: String(n - 1) });
    }
    const listed = await post(topicsRoute.POST, "topics", { serverName: "kfk" });
    expect(listed.status, listed.text).toBe(200);
    const row = listed.body.topics.find((t: { name: string }) => t.name === topic);
    expect(row).toMatchObject({ name: topic, messages: 3 });
    expect(row.partitions).toBe(row.partitionDetails.length);
    expect(row.partitionDetails[0]).toMatchObject({ partition: 0, low: "0", high: "3", messages: 3 });

    const newest = await post(readRoute.POST, "read", { serverName: "kfk", topic, limit: 2 }, viewer);
    expect(newest.status, newest.text).toBe(200);
    expect(newest.body.count).toBe(2);
    expect(newest.body.messages.map((m: { offset: string; value: string }) => [m.offset, m.value])).toEqual([
      ["1", '{"n":2}'],
      ["2", '{"n":3}'],
    ]);
    expect(newest.body.messages[0]).toMatchObject({ partition: 0, key: "k2", headers: { trace: "t2" } });
    const oldest = await post(readRoute.POST, "read", { serverName: "kfk", topic, limit: 1, from: "earliest" });
    expect(oldest.body.messages.map((m: { value: string }) => m.value)).toEqual(['{"n":1}']);
    expect((await post(readRoute.POST, "read", { serverName: "kfk", topic: `absent-${run}` })).status).toBe(404);
  }, 60_000);

  it("reports cluster metadata; a controller the cluster does not list is null", async () => {
    const res = await post(metadataRoute.POST, "metadata", { brokers: [cluster.brokers] });
    expect(res.status, res.text).toBe(200);
    const port = Number(cluster.brokers.split(":")[1]);
    expect(res.body.brokers).toEqual([{ nodeId: 1, host: "127.0.0.1", port }]);
    expect(res.body.clusterId).toMatch(/^mockCluster/);
    expect(res.body.controller).toBeNull();
    expect(res.body.topicCount).toBeGreaterThanOrEqual(1);
  });

  it("shows a consumer group's committed offsets and lag; the mock cluster cannot list groups (502 with the reason)", async () => {
    const groupTopic = `lagging-${run}`;
    const groupId = `billing-${run}`;
    for (const n of [1, 2, 3]) await post(publishRoute.POST, "publish", { serverName: "kfk", topic: groupTopic, value: `v${n}`, partition: 0 });
    const kafka = new kafkajs.Kafka({ brokers: [cluster.brokers], logLevel: kafkajs.logLevel.NOTHING });
    const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 200 });
    await consumer.connect();
    await consumer.subscribe({ topic: groupTopic, fromBeginning: true });
    let seen = 0;
    const all = new Promise<void>((resolve) => {
      void consumer.run({ autoCommitThreshold: 1, eachMessage: async () => void (++seen === 3 && resolve()) });
    });
    await all;
    await consumer.disconnect();
    for (const n of [4, 5]) await post(publishRoute.POST, "publish", { serverName: "kfk", topic: groupTopic, value: `v${n}`, partition: 0 });

    const res = await post(groupsRoute.POST, "consumer-groups", { serverName: "kfk", groups: [groupId] });
    expect(res.status, res.text).toBe(200);
    const [group] = res.body.groups;
    expect(group).toMatchObject({ groupId, totalLag: 2 });
    expect(group.topics[0].topic).toBe(groupTopic);
    expect(group.topics[0].partitions.find((p: { partition: number }) => p.partition === 0)).toEqual({ partition: 0, committed: "3", high: "5", lag: 2 });

    const listAll = await post(groupsRoute.POST, "consumer-groups", { serverName: "kfk" });
    expect(listAll.status).toBe(502);
    expect(listAll.body.error).toContain("does not support listing consumer groups");
  }, 60_000);

  it("topic create and delete: the mock cluster's missing controller is a 502 with the broker's reason; deleting an absent topic is 404", async () => {
    const created = await post(createTopicRoute.POST, "topics/create", { serverName: "kfk", topic: `made-${run}`, numPartitions: 2, configEntries: { "retention.ms": "60000" } });
    expect(created.status, created.text).toBe(502);
    expect(created.body).toMatchObject({ code: "external" });
    expect(created.body.error).toContain("not found in the cached metadata");
    const deleted = await post(deleteTopicRoute.POST, "topics/delete", { serverName: "kfk", topic });
    expect(deleted.status).toBe(502);
    expect(deleted.body.error).toContain("not found in the cached metadata");
    const absent = await post(deleteTopicRoute.POST, "topics/delete", { serverName: "kfk", topic: `absent-${run}` });
    expect(absent.status).toBe(404);
  });
});

describe("Kafka admin errors", () => {
  it("unreachable brokers are a 502 with the reason, for every row", async () => {
    const rows: [Handler, string, object][] = [
      [metadataRoute.POST, "metadata", {}],
      [topicsRoute.POST, "topics", {}],
      [createTopicRoute.POST, "topics/create", { topic: "t" }],
      [deleteTopicRoute.POST, "topics/delete", { topic: "t" }],
      [groupsRoute.POST, "consumer-groups", {}],
      [publishRoute.POST, "publish", { topic: "t", value: "v" }],
      [readRoute.POST, "read", { topic: "t" }],
    ];
    for (const [handler, path, body] of rows) {
      const res = await post(handler, path, { brokers: ["127.0.0.1:9"], timeoutMs: 3000, ...body });
      expect(res.status, `${path}: ${res.text}`).toBe(502);
      expect(res.body.error).toMatch(/^Kafka at 127\.0\.0\.1:9: /);
    }
  }, 60_000);

  it("refuses cloud-metadata brokers (SSRF policy) and private ones when OUTBOUND_ALLOW_PRIVATE=0", async () => {
    const res = await post(metadataRoute.POST, "metadata", { brokers: ["169.254.169.254:9092"] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "target_blocked", details: [{ field: "brokers" }] });
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    try {
      const viaServer = await post(metadataRoute.POST, "metadata", { serverName: "kfk" });
      expect(viaServer.status).toBe(400);
      expect(viaServer.body.details[0].field).toBe("serverName");
    } finally {
      delete process.env.OUTBOUND_ALLOW_PRIVATE;
    }
  });

  it("bad input is a 400; an unknown server 404; a namespace the caller cannot read 404; writes need write permission", async () => {
    const cases: [Handler, string, object][] = [
      [metadataRoute.POST, "metadata", {}],
      [metadataRoute.POST, "metadata", { serverName: "kfk", brokers: [cluster.brokers] }],
      [metadataRoute.POST, "metadata", { brokers: ["no-port"] }],
      [createTopicRoute.POST, "topics/create", { serverName: "kfk", topic: "bad topic" }],
      [createTopicRoute.POST, "topics/create", { serverName: "kfk", topic: "t", numPartitions: 0 }],
      [publishRoute.POST, "publish", { serverName: "kfk", topic: "t" }],
      [readRoute.POST, "read", { serverName: "kfk", topic: "t", limit: 1000 }],
      [readRoute.POST, "read", { serverName: "kfk", topic: "t", from: "middle" }],
    ];
    for (const [handler, path, body] of cases) {
      const res = await post(handler, path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}: ${res.text}`).toBe(400);
      expect(res.body.code).toBe("validation");
    }
    expect((await post(metadataRoute.POST, "metadata", { serverName: "nope" })).status).toBe(404);
    expect((await post(topicsRoute.POST, "topics", { serverName: "kfk" }, outsider)).status).toBe(404);
    expect((await post(publishRoute.POST, "publish", { serverName: "kfk", topic, value: "x" }, viewer)).status).toBe(403);
    expect((await post(deleteTopicRoute.POST, "topics/delete", { serverName: "kfk", topic }, viewer)).status).toBe(403);
  });
});
