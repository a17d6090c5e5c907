// Delete a Kafka topic.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { deleteKafkaTopic } from "@/server/services/broker-admin/kafka-admin";

export const POST = defineRoute(brokerAdminEndpoints.kafkaDeleteTopic, ({ namespace, body }) => deleteKafkaTopic(namespace, body));
