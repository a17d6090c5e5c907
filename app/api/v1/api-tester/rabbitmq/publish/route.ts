// Publish a message to a RabbitMQ exchange.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { publishRabbitMessage } from "@/server/services/broker-admin/rabbitmq-admin";

export const POST = defineRoute(brokerAdminEndpoints.rabbitPublish, ({ namespace, body }) => publishRabbitMessage(namespace, body));
