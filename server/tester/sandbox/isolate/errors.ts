// Inside the isolate: turns whatever a script threw into a RawError, with the
// line and column in the user's own script (the host compiles it under the
// name below, so the first stack frame naming that file is the user's code).
import type { RawError } from "../protocol";

export const SCRIPT_FILENAME = "script.js";
/** A stack line whose own location is the script (not an `eval at … (script.js…)` origin, which V8 numbers differently). */
const FRAME = /^\s*at (?:.*\()?script\.js:(\d+):(\d+)\)?$/m;

/** Globals of Postman's sandbox this one does not provide: a ReferenceError to them says so. */
const MISSING_GLOBALS = new Set(["_", "CryptoJS", "cheerio", "xml2Json", "moment", "Ajv", "$", "jQuery", "sugar", "Buffer", "URL", "URLSearchParams", "TextEncoder", "TextDecoder", "crypto", "fetch", "process"]);

function prop(e: unknown, key: string): unknown {
  try {
    return (e as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

export function errorName(e: unknown): string {
  const name = e !== null && typeof e === "object" ? prop(e, "name") : undefined;
  return typeof name === "string" && name ? name : "Error";
}

export function errorMessage(e: unknown): string {
  if (e !== null && typeof e === "object") {
    const message = prop(e, "message");
    if (typeof message === "string") return message;
  }
  try {
    return String(e);
  } catch {
    return "(an unprintable value was thrown)";
  }
}

export function toRawError(e: unknown): RawError {
  const name = errorName(e);
  let message = errorMessage(e);
  if (name === "ReferenceError") {
    const missing = /^(\S+) is not defined$/.exec(message);
    if (missing && MISSING_GLOBALS.has(missing[1])) message += ` (${missing[1]} is not available in this sandbox)`;
  }
  const out: RawError = { name, message };
  const stack = e !== null && typeof e === "object" ? prop(e, "stack") : undefined;
  const frame = typeof stack === "string" ? FRAME.exec(stack) : null;
  if (frame) {
    out.line = Number(frame[1]);
    out.column = Number(frame[2]);
  }
  return out;
}

/** What a failed pm.test reports: an assertion's own message, or the error's name and message. */
export function testFailureMessage(e: unknown): string {
  const name = errorName(e);
  const message = errorMessage(e);
  return name === "AssertionError" ? message : `${name}: ${message}`;
}
