// Read (peek or ack) messages from a RabbitMQ queue.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { readRabbitMessages } from "@/server/services/broker-admin/rabbitmq-admin";

export const POST = defineRoute(brokerAdminEndpoints.rabbitRead, ({ namespace, body }) => readRabbitMessages(namespace, body));
