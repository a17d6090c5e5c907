// The engine's answer when a mock matched: a type of its own so that every
// serving module names it the same way.
import type { EngineResult } from "@/server/engine/engine";

export type Matched = Extract<EngineResult, { matched: true }>;
