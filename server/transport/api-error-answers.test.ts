// Which Next.js answers the front rewrites into the envelope, and which paths
// it refuses before proxying them.
import { describe, expect, it } from "vitest";
import { allowFrom, apiRewriteFor, isApiFamily } from "./api-error-answers";
import { undecodableSegment } from "./front";

describe("isApiFamily", () => {
  it.each([
    ["/api/v1", true],
    ["/api/v1/mocks", true],
    ["/swagger", true],
    ["/swagger/doc.json", true],
    ["/health", true],
    ["/health/ready", true],
    ["/healthz", false],
    ["/swaggerui", false],
    ["/api/v10/x", false],
    ["/api/trpc/mocks.list", false],
    ["/mocks", false],
    ["/", false],
  ])("%s → %s", (path, expected) => expect(isApiFamily(path)).toBe(expected));
});

describe("apiRewriteFor", () => {
  it.each([
    ["/api/v1/tags", 405, undefined, "method_not_allowed"],
    ["/health", 405, "text/plain", "method_not_allowed"],
    ["/api/v1/nope", 404, "text/html; charset=utf-8", "not_found"],
    ["/swagger/x", 404, undefined, "not_found"],
    ["/api/v1/mocks/1", 404, "application/json", null], // a handler's own 404 envelope stays
    ["/api/v1/x", 404, "application/problem+json", null],
    ["/mocks/1", 404, "text/html", null], // UI pages keep Next.js's page
    ["/mocks", 405, undefined, null],
    ["/api/v1/tags", 200, "application/json", null],
    ["/api/v1/tags", 500, "text/plain", null],
  ])("%s %i %s → %s", (path, status, type, expected) => expect(apiRewriteFor(path, status, type)).toBe(expected));
});

describe("allowFrom", () => {
  it.each([
    ["OPTIONS, GET, POST", "GET, HEAD, OPTIONS, POST"],
    ["GET, HEAD, OPTIONS", "GET, HEAD, OPTIONS"],
    ["options,delete", "DELETE, OPTIONS"],
    ["", ""],
    [undefined, ""],
  ])("%s → %s", (header, expected) => expect(allowFrom(header)).toBe(expected));
});

describe("undecodableSegment", () => {
  it.each([
    ["/api/v1/mocks/abc", undefined],
    ["/api/v1/mocks/a%20b", undefined],
    ["/api/v1/mocks/%E2%9C%93", undefined],
    ["/api/v1/mocks/%zz", "%zz"],
    ["/api/v1/%/mocks", "%"],
    ["/api/v1/mocks/%E2%9C", "%E2%9C"], // truncated UTF-8
    ["/api/v1/mocks/%C0%AF", "%C0%AF"], // overlong UTF-8
    ["/api/v1/namespaces/%ff/mocks", "%ff"],
  ])("%s → %s", (path, expected) => expect(undecodableSegment(path)).toBe(expected));
});
