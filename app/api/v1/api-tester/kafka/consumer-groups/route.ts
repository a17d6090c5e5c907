// Kafka consumer groups with lag.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { listKafkaConsumerGroups } from "@/server/services/broker-admin/kafka-admin";

export const POST = defineRoute(brokerAdminEndpoints.kafkaConsumerGroups, ({ namespace, body }) => listKafkaConsumerGroups(namespace, body));
