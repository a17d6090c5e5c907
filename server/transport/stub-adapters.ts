// The protocol adapters tried, in order, before a stub request is served as
// plain HTTP. Each answers only when the request is its protocol's and the
// namespace has mocks of that protocol; returning null passes the request on.
import type { ServedProtocol } from "@/server/engine/protocols";
import { sseAdapter } from "./sse-stub";
import { graphqlAdapter } from "./graphql-stub";
import { soapAdapter } from "./soap-stub";
import type { StubContext, StubOutput } from "./stub-context";
import { mcpAdapter } from "./mcp-stub";
import { s3Adapter } from "./s3-stub";

export interface StubAdapter {
  protocol: ServedProtocol;
  /** Try this adapter even when the namespace has no mocks of its protocol (e.g. to capture an undefined call). */
  always?: boolean;
  /**
   * A cheap, synchronous first look: false means "not mine" without calling
   * serve. Plain HTTP traffic then passes every adapter without a promise.
   */
  claims?(ctx: StubContext): boolean;
  serve(ctx: StubContext): Promise<StubOutput | null>;
}

// MCP before SSE: the MCP client's GET (Accept: text/event-stream) on its endpoint is answered 405.
export const STUB_ADAPTERS: StubAdapter[] = [mcpAdapter, graphqlAdapter, soapAdapter, s3Adapter, sseAdapter];
