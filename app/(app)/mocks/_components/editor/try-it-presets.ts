// What Try it sends first for each protocol, read from the mock being edited:
// a GraphQL query to its path, a SOAP envelope with its SOAPAction, an SSE GET
// with Accept: text/event-stream, a JSON-RPC call for MCP. The user edits from there.
import type { Protocol } from "@/server/contracts/mock";
import type { Draft } from "./draft";

export interface TryPreset {
  method: string;
  path: string;
  headers: string;
  body: string;
  /** How the body is edited: a GraphQL query has its own editor and variables. */
  bodyKind: "json" | "xml" | "graphql";
}

/** A path to try for a route: `:name` parameters become sample values. */
export function samplePath(route: string | undefined) {
  const r = route ?? "/";
  return (r.startsWith("/") ? r : `/${r}`).replace(/:([A-Za-z0-9_]+)/g, "1");
}

const block = (draft: Draft, p: Protocol) => (draft[p] ?? {}) as Record<string, string | undefined>;

export function presetFor(protocol: Protocol, draft: Draft): TryPreset {
  const prefix = (draft.pathPrefix as string | undefined) ?? "";
  switch (protocol) {
    case "graphql": {
      const g = block(draft, "graphql");
      const field = g.field || "field";
      return { method: "POST", path: prefix + samplePath(g.path ?? "/graphql"), headers: "Content-Type: application/json", body: `${g.operation ?? "query"} {\n  ${field}\n}`, bodyKind: "graphql" };
    }
    case "soap": {
      const s = block(draft, "soap");
      const method = s.method || "Operation";
      const envelope = `<?xml version="1.0" encoding="utf-8"?>\n<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">\n  <soap:Body>\n    <${method}/>\n  </soap:Body>\n</soap:Envelope>`;
      return { method: "POST", path: prefix + samplePath(s.path ?? "/soap"), headers: `Content-Type: text/xml; charset=utf-8${s.action ? `\nSOAPAction: "${s.action}"` : ""}`, body: envelope, bodyKind: "xml" };
    }
    case "sse": {
      const s = block(draft, "sse");
      return { method: "GET", path: prefix + samplePath(s.eventPath ?? s.route ?? ""), headers: "Accept: text/event-stream", body: "", bodyKind: "json" };
    }
    case "mcp": {
      const m = block(draft, "mcp");
      const params = m.method === "prompts/get" ? { name: m.prompt ?? "", arguments: {} } : m.method === "resources/read" ? { uri: m.resource ?? "" } : { name: m.tool ?? "", arguments: {} };
      return { method: "POST", path: prefix || "/", headers: "Content-Type: application/json", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: m.method ?? "tools/call", params }, null, 2), bodyKind: "json" };
    }
    case "s3": {
      const s = block(draft, "s3");
      return { method: "GET", path: `/${s.bucket ?? "bucket"}/key.txt`, headers: "", body: "", bodyKind: "json" };
    }
    default: {
      const http = (draft.http ?? {}) as { route?: string; httpMethod?: string };
      return { method: (http.httpMethod ?? "GET").toUpperCase(), path: prefix + samplePath(http.route), headers: "Content-Type: application/json", body: "", bodyKind: "json" };
    }
  }
}
