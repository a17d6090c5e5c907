// The helper panels render (server-side, as the first paint does) with their
// empty states, and the Helpers tab opens the panel of the request's kind.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RequestDefinition } from "@/server/contracts/tester-request";
import { GraphqlExplorer } from "./graphql-explorer";
import { GrpcPanel } from "./grpc-panel";
import type { ProtocolHelperApi } from "./helper-api";
import { McpPanel } from "./mcp-panel";
import { ProtocolHelpers } from "./protocol-helpers";
import { SoapPanel } from "./soap-panel";

const never = () => Promise.reject(new Error("not called in a render"));
const api: ProtocolHelperApi = { graphqlIntrospect: never, grpcDiscover: never, proxyGrpc: never, soapOperations: never, mcpConnect: never, mcpToolsList: never, mcpToolsCall: never, mcpResourcesList: never };

describe("protocol helper panels", () => {
  it.each([
    ["GraphQL", createElement(GraphqlExplorer, { api, url: "http://x/graphql", headers: {}, onUseQuery: () => {} }), ["GraphQL endpoint", "Introspect", "http://x/graphql"]],
    ["gRPC", createElement(GrpcPanel, { api }), ["Server (host:port)", "Discover", "server reflection"]],
    ["SOAP", createElement(SoapPanel, { api, onUse: () => {} }), ["WSDL URL", "Load operations"]],
    ["MCP", createElement(McpPanel, { api }), ["MCP server URL", "Connect", "input schema"]],
  ])("%s renders its empty state", (_, element, texts) => {
    const html = renderToStaticMarkup(element);
    for (const t of texts) expect(html).toContain(t);
  });

  it("opens the panel of the request's kind", () => {
    const soap = RequestDefinition.parse({ name: "s", method: "POST", url: "", kind: "soap" });
    expect(renderToStaticMarkup(createElement(ProtocolHelpers, { api, value: soap, onChange: () => {} }))).toContain("WSDL URL");
    const gql = RequestDefinition.parse({ name: "g", method: "POST", url: "http://x/graphql", kind: "graphql" });
    expect(renderToStaticMarkup(createElement(ProtocolHelpers, { api, value: gql, onChange: () => {} }))).toContain("GraphQL endpoint");
  });
});
