// RabbitMQ broker metadata.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { rabbitMetadata } from "@/server/services/broker-admin/rabbitmq-admin";

export const POST = defineRoute(brokerAdminEndpoints.rabbitMetadata, ({ namespace, body }) => rabbitMetadata(namespace, body));
