// Produce one record (the Brokers screen's produce form).
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { publishKafkaMessage } from "@/server/services/broker-admin/kafka-admin";

export const POST = defineRoute(brokerAdminEndpoints.kafkaPublish, ({ namespace, body }) => publishKafkaMessage(namespace, body));
