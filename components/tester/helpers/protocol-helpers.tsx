"use client";
// The request editor's "Helpers" tab: GraphQL schema explorer, gRPC method
// picker and caller, SOAP operation picker and MCP tools, each its own panel.
// The one matching the request's kind opens first.
import { useState } from "react";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { RequestDefinition } from "@/server/contracts/tester-request";
import { formatXml } from "../beautify";
import { GraphqlExplorer } from "./graphql-explorer";
import { GrpcPanel } from "./grpc-panel";
import type { ProtocolHelperApi } from "./helper-api";
import { McpPanel } from "./mcp-panel";
import { SoapPanel, type SoapChoice } from "./soap-panel";

type Panel = "graphql" | "grpc" | "soap" | "mcp";

export function ProtocolHelpers({ api, value, onChange }: { api: ProtocolHelperApi; value: RequestDefinition; onChange: (next: RequestDefinition) => void }) {
  const [panel, setPanel] = useState<Panel>(value.kind === "soap" ? "soap" : value.kind === "graphql" || value.body.mode === "graphql" ? "graphql" : "mcp");
  const headers = Object.fromEntries(value.headers.filter((h) => h.enabled && h.key.trim()).map((h) => [h.key, h.value]));
  const applyQuery = (query: string) => onChange({ ...value, kind: value.kind === "soap" ? value.kind : "graphql", method: "POST", body: { ...value.body, mode: "graphql", graphql: { ...(value.body.graphql ?? {}), query } } });
  const applySoap = (c: SoapChoice) =>
    onChange({ ...value, kind: "soap", method: "POST", url: value.url.trim() ? value.url : (c.address ?? ""), soap: { version: c.version, ...(c.action ? { action: c.action } : {}) }, body: { ...value.body, mode: "raw", language: "xml", raw: formatXml(c.envelope) ?? c.envelope } });
  return (
    <Tabs value={panel} onValueChange={(p) => setPanel(p as Panel)}>
      <TabsList aria-label="Protocol helpers" className="h-8 w-auto">
        <TabsTrigger value="graphql" className="text-xs">
          GraphQL schema
        </TabsTrigger>
        <TabsTrigger value="grpc" className="text-xs">
          gRPC
        </TabsTrigger>
        <TabsTrigger value="soap" className="text-xs">
          SOAP operations
        </TabsTrigger>
        <TabsTrigger value="mcp" className="text-xs">
          MCP tools
        </TabsTrigger>
      </TabsList>
      <TabsContent value="graphql" className="mt-3">
        <GraphqlExplorer api={api} url={value.url} headers={headers} onUseQuery={applyQuery} />
      </TabsContent>
      <TabsContent value="grpc" className="mt-3">
        <GrpcPanel api={api} />
      </TabsContent>
      <TabsContent value="soap" className="mt-3">
        <SoapPanel api={api} onUse={applySoap} />
      </TabsContent>
      <TabsContent value="mcp" className="mt-3">
        <McpPanel api={api} />
      </TabsContent>
    </Tabs>
  );
}
