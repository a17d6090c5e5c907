import { describe, expect, it } from "vitest";
import { mockDraftFromResponse } from "./mock-from-response";

describe("mockDraftFromResponse", () => {
  it("answers the same path and method with the status, content headers and parsed JSON body", () => {
    const draft = mockDraftFromResponse(
      { method: "get", url: "http://api.example.test/users/7?x=1" },
      { status: 201, bodyEncoding: "utf8", body: '{"id":7}', headers: [{ key: "Content-Type", value: "application/json" }, { key: "Content-Length", value: "8" }, { key: "X-Trace", value: "a" }, { key: "X-Trace", value: "b" }] },
    );
    expect(draft).toEqual({ http: { route: "/users/7", httpMethod: "GET" }, response: { statusCode: 201, headers: { "Content-Type": ["application/json"], "X-Trace": ["a", "b"] }, payload: { id: 7 } } });
  });

  it("keeps text as text and binary as base64 with decode", () => {
    expect(mockDraftFromResponse({ method: "GET", url: "http://x/a" }, { status: 200, bodyEncoding: "utf8", body: "plain", headers: [] }).response).toEqual({ statusCode: 200, payload: "plain" });
    expect(mockDraftFromResponse({ method: "GET", url: "http://x/b" }, { status: 200, bodyEncoding: "base64", body: "AAE=", headers: [] }).response).toEqual({ statusCode: 200, payload: "AAE=", decode: "base64" });
  });

  it("falls back to / for a URL it cannot parse", () => {
    expect(mockDraftFromResponse({ method: "GET", url: "not a url" }, { status: 200, bodyEncoding: "utf8", body: "", headers: [] }).http).toEqual({ route: "/", httpMethod: "GET" });
  });
});
