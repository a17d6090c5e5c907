// Where a mock sits in its namespace's indexes. Every protocol served over
// HTTP (and WebSocket) reuses the one route index, selection order,
// conditions, templates and stores: a protocol only says which route the
// mock answers on, which selector key picks it among mocks of that route
// (the HTTP method for http; e.g. "query users" for a GraphQL field), and
// which of its fields hold the conditions.
import type { Condition, MockDefinition, Protocol } from "@/server/contracts/mock";

/** The fields of a mock that hold its conditions (compiled by ../conditions.ts). */
export interface ConditionBlock {
  conditions?: Condition[];
  queryParams?: Condition[];
  header?: Condition[];
  sortArray?: boolean;
}

export interface Placement {
  /** Route pattern, pathPrefix included (`:name` parameters, trailing `*`). */
  route: string;
  /** Selector within the route; null = any. For http it is the upper-case method. */
  selector: string | null;
  conditions: ConditionBlock;
}

/** A protocol's placement of one mock; null when the mock cannot be served (should not happen for validated mocks). */
export type Placer = (def: MockDefinition) => Placement | null;

/** Protocols whose mocks the web process serves (the others run in protocol-runner). */
export type ServedProtocol = Extract<Protocol, "http" | "graphql" | "soap" | "sse" | "mcp" | "s3" | "socket" | "grpc" | "smtp" | "rabbitmq" | "nats" | "kafka">;
