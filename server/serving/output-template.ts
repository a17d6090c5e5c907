// Templated outputs beside a broker mock's payload (a Kafka key, Kafka and
// NATS reply headers): the same placeholders as the payload, rendered
// against the request the mock matched. Compiled sources are kept in a
// bounded cache: a mock's few output strings are compiled once, not per
// message.
import type { MockDefinition } from "@/server/contracts/mock";
import { compileString, renderString, type CompiledString } from "@/server/engine/template";
import type { EngineDeps, EngineRequest, TemplateContext } from "@/server/engine/types";

const CACHE_MAX = 1000;
const compiled = new Map<string, CompiledString>();

function template(source: string): CompiledString {
  let c = compiled.get(source);
  if (!c) {
    c = compileString(source);
    if (compiled.size >= CACHE_MAX) compiled.clear();
    compiled.set(source, c);
  }
  return c;
}

export function outputContext(mock: MockDefinition, req: EngineRequest, pathParams: Record<string, string>, deps: EngineDeps): TemplateContext {
  return { request: req, pathParams, namespace: req.namespace, chainId: mock.chainId, mockStore: {}, stores: deps.stores, clock: deps.clock, random: deps.random };
}

export function renderOutput(source: string, ctx: TemplateContext): string {
  return renderString(template(source), ctx);
}

/** Each value of `sources` rendered. */
export function renderOutputs(sources: Record<string, string> | undefined, ctx: TemplateContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, source] of Object.entries(sources ?? {})) out[name] = renderOutput(source, ctx);
  return out;
}
