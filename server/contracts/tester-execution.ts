// What running a request and its scripts produces: the response with its
// timing breakdown, and a script's verdict (the spec's fields: status,
// success, totalTests, passedTests, failedTests, skippedTests, tests, logs,
// durationMs, skipRequest). Browser-safe: the workspace renders these.
import { z } from "zod";

/** Bodies larger than this are cut, and `bodyTruncated` says so. */
export const MAX_RESPONSE_BODY_BYTES = 10 * 1024 * 1024;

export const ResponseCookie = z.object({
  name: z.string(),
  value: z.string(),
  domain: z.string().optional(),
  path: z.string().optional(),
  expires: z.string().optional().describe("ISO 8601; absent for a session cookie"),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  sameSite: z.string().optional(),
});
export type ResponseCookie = z.infer<typeof ResponseCookie>;

/** Milliseconds of each phase, as Postman's timing bar shows them; a reused connection has 0 for dns, connect and tls. */
export const Timings = z.object({
  dnsMs: z.number(),
  connectMs: z.number(),
  tlsMs: z.number(),
  firstByteMs: z.number().describe("request sent → first response byte"),
  downloadMs: z.number(),
  totalMs: z.number(),
});
export type Timings = z.infer<typeof Timings>;

export const ExecutedResponse = z.object({
  status: z.number().int(),
  statusText: z.string(),
  headers: z.array(z.object({ key: z.string(), value: z.string() })).describe("in arrival order; repeated headers stay separate"),
  body: z.string().describe("text, or base64 when bodyEncoding is base64"),
  bodyEncoding: z.enum(["utf8", "base64"]),
  bodyTruncated: z.boolean(),
  size: z.object({ headers: z.number().int(), body: z.number().int().describe("bytes received, before any cut") }),
  cookies: z.array(ResponseCookie),
  timings: Timings,
  url: z.string().describe("the final URL, after redirects"),
  redirects: z.array(z.object({ status: z.number().int(), url: z.string() })),
  httpVersion: z.string(),
  remoteAddress: z.string().optional(),
});
export type ExecutedResponse = z.infer<typeof ExecutedResponse>;

/** The request as it went out (variables substituted, auth applied). */
export const SentRequest = z.object({
  method: z.string(),
  url: z.string(),
  headers: z.array(z.object({ key: z.string(), value: z.string() })),
  body: z.string().optional().describe("text, or base64 for binary and multipart bodies (bodyEncoding)"),
  bodyEncoding: z.enum(["utf8", "base64"]).optional(),
});
export type SentRequest = z.infer<typeof SentRequest>;

export const TestOutcome = z.enum(["passed", "failed", "skipped"]);
export const ScriptTest = z.object({
  name: z.string(),
  status: TestOutcome,
  error: z.string().optional().describe("the assertion's message when failed"),
});
export type ScriptTest = z.infer<typeof ScriptTest>;

export const LogLevel = z.enum(["log", "info", "warn", "error", "debug"]);
export const ScriptLog = z.object({ level: LogLevel, message: z.string(), at: z.number().describe("ms since the script started") });
export type ScriptLog = z.infer<typeof ScriptLog>;

export const ScriptStatus = z.enum(["passed", "failed", "skipped", "error"]);
export type ScriptStatus = z.infer<typeof ScriptStatus>;

export const ScriptError = z.object({
  message: z.string(),
  kind: z.enum(["syntax", "runtime", "timeout", "memory", "output"]).describe("timeout: CPU or wall time limit; memory: heap limit; output: too many logs/tests"),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});
export type ScriptError = z.infer<typeof ScriptError>;

export const ScriptVerdict = z.object({
  status: ScriptStatus,
  success: z.boolean(),
  totalTests: z.number().int(),
  passedTests: z.number().int(),
  failedTests: z.number().int(),
  skippedTests: z.number().int(),
  tests: z.array(ScriptTest),
  logs: z.array(ScriptLog),
  durationMs: z.number(),
  skipRequest: z.boolean().optional(),
  error: ScriptError.optional(),
});
export type ScriptVerdict = z.infer<typeof ScriptVerdict>;
