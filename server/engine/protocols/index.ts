// The placers of the protocols served by the web process (and gRPC, SMTP, RabbitMQ and Kafka,
// served by the protocol runner from the same indexes). A protocol missing
// here is not served over HTTP (its mocks are skipped when indexes are built).
import type { Protocol } from "@/server/contracts/mock";
import { placeGraphql } from "./graphql";
import { placeGrpc } from "./grpc";
import { placeHttp } from "./http";
import { placeKafka } from "./kafka";
import { placeMcp } from "./mcp";
import { placeS3 } from "./s3";
import type { Placer, ServedProtocol } from "./placement";
import { placeNats } from "./nats";
import { placeRabbitmq } from "./rabbitmq";
import { placeSmtp } from "./smtp";
import { placeSoap } from "./soap";
import { placeSocket } from "./socket";
import { placeSse } from "./sse";

export const PLACERS: Partial<Record<ServedProtocol, Placer>> = {
  http: placeHttp,
  sse: placeSse,
  socket: placeSocket,
  mcp: placeMcp,
  s3: placeS3,
  graphql: placeGraphql,
  soap: placeSoap,
  grpc: placeGrpc,
  smtp: placeSmtp,
  rabbitmq: placeRabbitmq,
  kafka: placeKafka,
  nats: placeNats,
};

export function placerFor(protocol: Protocol): Placer | undefined {
  return PLACERS[protocol as ServedProtocol];
}

export type { Placement, Placer, ServedProtocol } from "./placement";
