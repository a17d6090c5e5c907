// Kafka cluster metadata.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { kafkaMetadata } from "@/server/services/broker-admin/kafka-admin";

export const POST = defineRoute(brokerAdminEndpoints.kafkaMetadata, ({ namespace, body }) => kafkaMetadata(namespace, body));
