// Purge a RabbitMQ queue.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { purgeRabbitQueue } from "@/server/services/broker-admin/rabbitmq-admin";

export const POST = defineRoute(brokerAdminEndpoints.rabbitPurgeQueue, ({ namespace, body }) => purgeRabbitQueue(namespace, body));
