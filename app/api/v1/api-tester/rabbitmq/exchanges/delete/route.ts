// Delete a RabbitMQ exchange.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { deleteRabbitExchange } from "@/server/services/broker-admin/rabbitmq-admin";

export const POST = defineRoute(brokerAdminEndpoints.rabbitDeleteExchange, ({ namespace, body }) => deleteRabbitExchange(namespace, body));
