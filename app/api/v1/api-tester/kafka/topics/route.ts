// Kafka topics with partitions and message counts.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { listKafkaTopics } from "@/server/services/broker-admin/kafka-admin";

export const POST = defineRoute(brokerAdminEndpoints.kafkaTopics, ({ namespace, body }) => listKafkaTopics(namespace, body));
