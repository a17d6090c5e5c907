// The Brokers screen: Kafka and RabbitMQ admin over tRPC, the same service
// functions as /api/v1/api-tester/kafka/* and /rabbitmq/*. Lists are queries
// (refetched by the screen); peeks are mutations, run on demand.
import * as c from "@/server/contracts/broker-admin";
import * as kafka from "@/server/services/broker-admin/kafka-admin";
import * as rabbit from "@/server/services/broker-admin/rabbitmq-admin";
import { nsDelete, nsRead, nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

export const brokersRouter = createTRPCRouter({
  kafkaMetadata: nsRead.input(c.KafkaMetadataInput).query(({ ctx, input }) => kafka.kafkaMetadata(ctx.scope, input)),
  kafkaTopics: nsRead.input(c.KafkaTopicsInput).query(({ ctx, input }) => kafka.listKafkaTopics(ctx.scope, input)),
  kafkaCreateTopic: nsWrite.input(c.KafkaCreateTopicInput).mutation(({ ctx, input }) => kafka.createKafkaTopic(ctx.scope, input)),
  kafkaDeleteTopic: nsDelete.input(c.KafkaDeleteTopicInput).mutation(({ ctx, input }) => kafka.deleteKafkaTopic(ctx.scope, input)),
  kafkaConsumerGroups: nsRead.input(c.KafkaConsumerGroupsInput).query(({ ctx, input }) => kafka.listKafkaConsumerGroups(ctx.scope, input)),
  kafkaPublish: nsWrite.input(c.KafkaPublishInput).mutation(({ ctx, input }) => kafka.publishKafkaMessage(ctx.scope, input)),
  kafkaRead: nsRead.input(c.KafkaReadInput).mutation(({ ctx, input }) => kafka.readKafkaMessages(ctx.scope, input)),
  rabbitMetadata: nsRead.input(c.RabbitMetadataInput).query(({ ctx, input }) => rabbit.rabbitMetadata(ctx.scope, input)),
  rabbitQueues: nsRead.input(c.RabbitQueuesInput).query(({ ctx, input }) => rabbit.listRabbitQueues(ctx.scope, input)),
  rabbitCreateQueue: nsWrite.input(c.RabbitCreateQueueInput).mutation(({ ctx, input }) => rabbit.createRabbitQueue(ctx.scope, input)),
  rabbitDeleteQueue: nsDelete.input(c.RabbitDeleteQueueInput).mutation(({ ctx, input }) => rabbit.deleteRabbitQueue(ctx.scope, input)),
  rabbitPurgeQueue: nsDelete.input(c.RabbitPurgeQueueInput).mutation(({ ctx, input }) => rabbit.purgeRabbitQueue(ctx.scope, input)),
  rabbitExchanges: nsRead.input(c.RabbitExchangesInput).query(({ ctx, input }) => rabbit.listRabbitExchanges(ctx.scope, input)),
  rabbitCreateExchange: nsWrite.input(c.RabbitCreateExchangeInput).mutation(({ ctx, input }) => rabbit.createRabbitExchange(ctx.scope, input)),
  rabbitDeleteExchange: nsDelete.input(c.RabbitDeleteExchangeInput).mutation(({ ctx, input }) => rabbit.deleteRabbitExchange(ctx.scope, input)),
  rabbitPublish: nsWrite.input(c.RabbitPublishInput).mutation(({ ctx, input }) => rabbit.publishRabbitMessage(ctx.scope, input)),
  rabbitRead: nsRead.input(c.RabbitReadInput).mutation(({ ctx, input }) => rabbit.readRabbitMessages(ctx.scope, input)),
});
