// The idempotence half of the Kafka commit protocol: a reply is produced
// (acknowledged by all in-sync replicas), then its record's offset is written
// here, then the offset is committed to the group. A record redelivered after
// a cut between the last two steps is found here and committed without a
// second reply. Plain pg: it is on the hot path (server/db/client.ts, rawPool).
import { rawPool } from "@/server/db/client";

export interface PartitionRef {
  serverId: string;
  groupId: string;
  topic: string;
  partition: number;
}

/** The offsets (of those asked) whose reply was already produced. */
export async function repliedOffsets(ref: PartitionRef, offsets: string[]): Promise<Set<string>> {
  if (offsets.length === 0) return new Set();
  const { rows } = await rawPool().query<{ offset: string }>(
    `SELECT "offset"::text AS "offset" FROM "KafkaReplyLedger"
      WHERE "serverId" = $1 AND "groupId" = $2 AND "topic" = $3 AND "partition" = $4 AND "offset" = ANY($5::bigint[])`,
    [ref.serverId, ref.groupId, ref.topic, ref.partition, offsets],
  );
  return new Set(rows.map((r) => r.offset));
}

export async function recordReplied(ref: PartitionRef, offsets: string[]): Promise<void> {
  if (offsets.length === 0) return;
  await rawPool().query(
    `INSERT INTO "KafkaReplyLedger" ("serverId", "groupId", "topic", "partition", "offset")
     SELECT $1, $2, $3, $4, o FROM unnest($5::bigint[]) AS o
     ON CONFLICT DO NOTHING`,
    [ref.serverId, ref.groupId, ref.topic, ref.partition, offsets],
  );
}

/** Once `committed` (the next offset to read) is the group's, rows below it can never be asked for again. */
export async function forgetBelow(ref: PartitionRef, committed: string): Promise<void> {
  await rawPool().query(
    `DELETE FROM "KafkaReplyLedger" WHERE "serverId" = $1 AND "groupId" = $2 AND "topic" = $3 AND "partition" = $4 AND "offset" < $5::bigint`,
    [ref.serverId, ref.groupId, ref.topic, ref.partition, committed],
  );
}
