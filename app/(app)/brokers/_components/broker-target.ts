// What the Brokers screen talks to: a protocol server of the namespace, or an
// address typed in (the same two forms the REST rows accept).
export type BrokerKind = "kafka" | "rabbitmq";
export type RabbitTargetFields = { serverName: string } | { url: string; managementUrl?: string };
export type KafkaTargetFields = { serverName: string } | { brokers: string[] };

export type BrokerTarget = { kind: "rabbitmq"; label: string; fields: RabbitTargetFields } | { kind: "kafka"; label: string; fields: KafkaTargetFields };
