// The API tester's script sandbox: Postman-compatible pre-request and test
// scripts run as hostile code in a V8 isolate of their own (isolated-vm).
// Why this design, its limits and what of the pm API it leaves out:
// docs/decisions.md, "Script sandbox".
export { ScriptSandbox, runScript } from "./sandbox";
export { DEFAULT_LIMITS } from "./types";
export type { SandboxLimits, ScriptCookie, ScriptInfo, ScriptInput, ScriptOutcome, ScriptRequest, SendRequest } from "./types";
