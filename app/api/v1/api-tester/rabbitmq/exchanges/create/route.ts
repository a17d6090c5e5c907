// Declare a RabbitMQ exchange.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { createRabbitExchange } from "@/server/services/broker-admin/rabbitmq-admin";

export const POST = defineRoute(brokerAdminEndpoints.rabbitCreateExchange, ({ namespace, body }) => createRabbitExchange(namespace, body));
