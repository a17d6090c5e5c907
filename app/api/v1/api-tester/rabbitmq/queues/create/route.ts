// Declare a RabbitMQ queue.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { createRabbitQueue } from "@/server/services/broker-admin/rabbitmq-admin";

export const POST = defineRoute(brokerAdminEndpoints.rabbitCreateQueue, ({ namespace, body }) => createRabbitQueue(namespace, body));
