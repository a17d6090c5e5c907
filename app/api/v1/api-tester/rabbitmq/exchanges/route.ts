// RabbitMQ exchanges.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { listRabbitExchanges } from "@/server/services/broker-admin/rabbitmq-admin";

export const POST = defineRoute(brokerAdminEndpoints.rabbitExchanges, ({ namespace, body }) => listRabbitExchanges(namespace, body));
