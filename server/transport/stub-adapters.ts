// The protocol adapters tried, in order, before a stub request is served as
// plain HTTP. Each answers only when the request is its protocol's and the
// namespace has mocks of that protocol; returning null passes the request on.
import { sseAdapter } from "./sse-stub";
import { graphqlAdapter } from "./graphql-stub";
import { soapAdapter } from "./soap-stub";
import type { StubAdapter } from "./stub-context";
import { mcpAdapter } from "./mcp-stub";
import { s3Adapter } from "./s3-stub";

// MCP before SSE: the MCP client's GET (Accept: text/event-stream) on its endpoint is answered 405.
export const STUB_ADAPTERS: StubAdapter[] = [mcpAdapter, graphqlAdapter, soapAdapter, s3Adapter, sseAdapter];
