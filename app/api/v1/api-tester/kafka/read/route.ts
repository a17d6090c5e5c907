// Peek at a topic's records without committing (the Brokers screen's peek).
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { readKafkaMessages } from "@/server/services/broker-admin/kafka-admin";

export const POST = defineRoute(brokerAdminEndpoints.kafkaRead, ({ namespace, body }) => readKafkaMessages(namespace, body));
