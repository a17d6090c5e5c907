// tRPC for the request editor's protocol helper panels: the same services as
// the REST helpers (app/api/v1/proxy/*, app/api/v1/api-tester/{mcp,graphql,grpc,soap}/*).
// Inputs are the contracts without `.strict()`, as tRPC merges them with the namespace selector.
import { z } from "zod";
import {
  GraphqlIntrospectInput,
  GrpcDiscoverInput,
  McpConnectInput,
  McpToolsCallInput,
  ProxyGrpcInput,
  ProxyHttpInput,
  ProxySoapInput,
  SoapOperationsInput,
} from "@/server/contracts/tester-helpers";
import { introspectGraphql } from "@/server/services/tester/helpers/graphql";
import { discoverGrpc, proxyGrpc } from "@/server/services/tester/helpers/grpc";
import { proxyHttp } from "@/server/services/tester/helpers/http";
import { mcpCallTool, mcpConnect, mcpListResources, mcpListTools } from "@/server/services/tester/helpers/mcp";
import { proxySoap, soapOperations } from "@/server/services/tester/helpers/soap";
import { nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

// Wrapped in one key so a body's own `namespace` field never meets the selector's.
const wrap = <T extends z.ZodType>(schema: T) => z.object({ call: schema });

export const apiTesterHelpersRouter = createTRPCRouter({
  proxyHttp: nsWrite.input(wrap(ProxyHttpInput)).mutation(({ input, signal }) => proxyHttp(input.call, signal)),
  proxySoap: nsWrite.input(wrap(ProxySoapInput)).mutation(({ input, signal }) => proxySoap(input.call, signal)),
  proxyGrpc: nsWrite.input(wrap(ProxyGrpcInput)).mutation(({ ctx, input }) => proxyGrpc(ctx.scope, input.call)),
  grpcDiscover: nsWrite.input(wrap(GrpcDiscoverInput)).mutation(({ input }) => discoverGrpc(input.call)),
  graphqlIntrospect: nsWrite.input(wrap(GraphqlIntrospectInput)).mutation(({ input, signal }) => introspectGraphql(input.call, signal)),
  soapOperations: nsWrite.input(wrap(SoapOperationsInput)).mutation(({ input }) => soapOperations(input.call)),
  mcpConnect: nsWrite.input(wrap(McpConnectInput)).mutation(({ input }) => mcpConnect(input.call)),
  mcpToolsList: nsWrite.input(wrap(McpConnectInput)).mutation(({ input }) => mcpListTools(input.call)),
  mcpToolsCall: nsWrite.input(wrap(McpToolsCallInput)).mutation(({ input }) => mcpCallTool(input.call)),
  mcpResourcesList: nsWrite.input(wrap(McpConnectInput)).mutation(({ input }) => mcpListResources(input.call)),
});
