// Create a Kafka topic.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { createKafkaTopic } from "@/server/services/broker-admin/kafka-admin";

export const POST = defineRoute(brokerAdminEndpoints.kafkaCreateTopic, ({ namespace, body }) => createKafkaTopic(namespace, body));
