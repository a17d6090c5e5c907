// What the protocol helper panels need from the server, as plain async calls
// (the page wires them to tRPC's apiTester.helpers.*), so the panels stay
// presentational. Shapes are the contracts' own.
import type { z } from "zod";
import type {
  GraphqlIntrospectInput,
  GraphqlIntrospectResult,
  GrpcDiscoverInput,
  GrpcDiscoverResult,
  McpConnectInput,
  McpConnectResult,
  McpResourcesListResult,
  McpToolsCallInput,
  McpToolsCallResult,
  McpToolsListResult,
  ProxyGrpcInput,
  ProxyGrpcResult,
  SoapOperationsInput,
  SoapOperationsResult,
} from "@/server/contracts/tester-helpers";

export interface ProtocolHelperApi {
  graphqlIntrospect(input: z.input<typeof GraphqlIntrospectInput>): Promise<z.infer<typeof GraphqlIntrospectResult>>;
  grpcDiscover(input: z.input<typeof GrpcDiscoverInput>): Promise<z.infer<typeof GrpcDiscoverResult>>;
  proxyGrpc(input: z.input<typeof ProxyGrpcInput>): Promise<z.infer<typeof ProxyGrpcResult>>;
  soapOperations(input: z.input<typeof SoapOperationsInput>): Promise<z.infer<typeof SoapOperationsResult>>;
  mcpConnect(input: z.input<typeof McpConnectInput>): Promise<z.infer<typeof McpConnectResult>>;
  mcpToolsList(input: z.input<typeof McpConnectInput>): Promise<z.infer<typeof McpToolsListResult>>;
  mcpToolsCall(input: z.input<typeof McpToolsCallInput>): Promise<z.infer<typeof McpToolsCallResult>>;
  mcpResourcesList(input: z.input<typeof McpConnectInput>): Promise<z.infer<typeof McpResourcesListResult>>;
}

export type GraphqlSchemaInfo = z.infer<typeof GraphqlIntrospectResult>;
export type GrpcService = z.infer<typeof GrpcDiscoverResult>["services"][number];
export type SoapOperationInfo = z.infer<typeof SoapOperationsResult>["operations"][number];
export type McpToolInfo = z.infer<typeof McpToolsListResult>["tools"][number];
