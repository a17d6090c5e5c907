// RabbitMQ queues with counts.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { listRabbitQueues } from "@/server/services/broker-admin/rabbitmq-admin";

export const POST = defineRoute(brokerAdminEndpoints.rabbitQueues, ({ namespace, body }) => listRabbitQueues(namespace, body));
