// The protocol adapters tried, in order, before a stub request is served as
// plain HTTP. Each answers only when the request is its protocol's and the
// namespace has mocks of that protocol; returning null passes the request on.
import type { ServedProtocol } from "@/server/engine/protocols";
import { graphqlAdapter } from "./graphql-stub";
import { soapAdapter } from "./soap-stub";
import type { StubContext, StubOutput } from "./stub-context";

export interface StubAdapter {
  protocol: ServedProtocol;
  /** Try this adapter even when the namespace has no mocks of its protocol (e.g. to capture an undefined call). */
  always?: boolean;
  serve(ctx: StubContext): Promise<StubOutput | null>;
}

export const STUB_ADAPTERS: StubAdapter[] = [graphqlAdapter, soapAdapter];
