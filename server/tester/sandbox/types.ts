// The script sandbox's public shapes: what a caller hands in to run one
// Postman-style script and what comes back. The verdict fields themselves are
// the contract's (ScriptVerdict); this adds what only the runner needs.
import type { ExecutedResponse, ScriptVerdict } from "@/server/contracts/tester-execution";
import type { RequestAuth, RequestBody } from "@/server/contracts/tester-request";
import type { VariableScopes } from "@/server/tester/scopes";

/** The request as scripts see it (pm.request): variables not yet substituted in a pre-request script. */
export interface ScriptRequest {
  method: string;
  url: string;
  headers: { key: string; value: string }[];
  body: RequestBody;
  auth?: RequestAuth;
  name?: string;
  id?: string;
}

export interface SandboxLimits {
  /** Synchronous CPU time of one script, summed over its callbacks (timers, pm.sendRequest). */
  cpuMs: number;
  /** Whole script, including time spent awaiting timers and pm.sendRequest. */
  wallMs: number;
  memoryMb: number;
  maxLogEntries: number;
  maxLogBytes: number;
  maxTests: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  cpuMs: 1000,
  wallMs: 30_000,
  memoryMb: 64,
  maxLogEntries: 1000,
  maxLogBytes: 1024 * 1024,
  maxTests: 1000,
};

/** Not in SandboxLimits because no caller has needed to tune them; each is reported as a script error when hit. */
export const FIXED_LIMITS = { maxTimers: 1000, maxSendRequests: 100 } as const;

export type SendRequest = (req: string | ScriptRequest) => Promise<ExecutedResponse>;

export interface ScriptInfo {
  eventName: "prerequest" | "test";
  iteration: number;
  iterationCount: number;
  requestName: string;
  requestId: string;
  collectionName?: string;
  /** pm.environment.name (additive to the brief's shape: Postman's docs test against it). */
  environmentName?: string;
}

export interface ScriptCookie {
  name: string;
  value: string;
  domain?: string;
  path?: string;
}

export interface ScriptInput {
  script: string;
  scriptType: "preRequest" | "test";
  /** Not mutated; the outcome carries the new scopes. */
  scopes: VariableScopes;
  request: ScriptRequest;
  response?: ExecutedResponse;
  info: ScriptInfo;
  /** pm.iterationData, and the `data` scope when given. */
  iterationData?: Record<string, unknown>;
  /** pm.cookies; a test script without them sees the response's cookies. */
  cookies?: ScriptCookie[];
  /** The host does the HTTP (and its SSRF policy); absent → pm.sendRequest hands its callback an error. */
  sendRequest?: SendRequest;
  limits?: Partial<SandboxLimits>;
}

export interface ScriptOutcome extends ScriptVerdict {
  scopes: VariableScopes;
  /** Pre-request scripts: the request as the script left it. */
  request?: ScriptRequest;
  /** Set by pm.execution.setNextRequest / postman.setNextRequest; null = stop the run; absent = not called. */
  nextRequest?: string | null;
  visualizer?: { template: string; data: unknown };
}
