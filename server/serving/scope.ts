// What the serving core knows of one request, whatever wire it came on: its
// namespace's compiled mocks, the engine's dependencies, and where it came in
// (for the request log and undefined-request capture). A leaf of types:
// adapters extend it with their wire's fields (transport/stub-context.ts).
import type { EngineDeps } from "@/server/engine/types";
import type { NamespaceIndex } from "./mock-index";

export interface ServingScope {
  namespace: string;
  index: NamespaceIndex;
  deps: EngineDeps;
  requestId: string;
  /** performance.now() when the request arrived. */
  started: number;
  /** Path after /stubs/<namespace> (or the adapter's own notion of a route), starting with "/". */
  path: string;
  /** The query string with its "?", or "". */
  search: string;
  query: Record<string, string[]>;
  /** Lower-case names, lists of values. */
  headers: Record<string, string[]>;
}
