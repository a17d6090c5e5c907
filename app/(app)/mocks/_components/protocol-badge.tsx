// How each protocol is named in the console ("WebSocket", not the contract's key "socket").
import { Badge } from "@/components/ui/badge";
import type { Protocol } from "@/server/contracts/mock";

export const PROTOCOL_LABELS: Record<Protocol, string> = {
  http: "HTTP",
  grpc: "gRPC",
  mcp: "MCP",
  soap: "SOAP",
  graphql: "GraphQL",
  smtp: "SMTP",
  socket: "WebSocket",
  kafka: "Kafka",
  rabbitmq: "RabbitMQ",
  nats: "NATS",
  sse: "SSE",
  s3: "S3",
};

export function protocolLabel(protocol: string): string {
  return PROTOCOL_LABELS[protocol as Protocol] ?? protocol;
}

export function ProtocolBadge({ protocol }: { protocol: string }) {
  return (
    <Badge variant="secondary" className="font-mono">
      {protocolLabel(protocol)}
    </Badge>
  );
}
