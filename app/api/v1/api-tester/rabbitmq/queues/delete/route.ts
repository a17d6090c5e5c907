// Delete a RabbitMQ queue.
import { brokerAdminEndpoints } from "@/server/contracts/broker-admin";
import { defineRoute } from "@/server/http/define-route";
import { deleteRabbitQueue } from "@/server/services/broker-admin/rabbitmq-admin";

export const POST = defineRoute(brokerAdminEndpoints.rabbitDeleteQueue, ({ namespace, body }) => deleteRabbitQueue(namespace, body));
