// Request ids, and what TRUST_PROXY changes: the client address (rate limits,
// audit) and whether the request came over TLS (the session cookie's Secure).
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { clientIp, isRequestId, isSecureRequest, newRequestId, PEER_HEADER, trustsProxy } from "./request-meta";

const saved = { TRUST_PROXY: process.env.TRUST_PROXY, PUBLIC_URL: process.env.PUBLIC_URL };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

function setEnv(trustProxy: string | undefined, publicUrl?: string) {
  if (trustProxy === undefined) delete process.env.TRUST_PROXY;
  else process.env.TRUST_PROXY = trustProxy;
  if (publicUrl === undefined) delete process.env.PUBLIC_URL;
  else process.env.PUBLIC_URL = publicUrl;
}

describe("newRequestId", () => {
  it("is a v4-shaped UUID that the server accepts back as a request id", () => {
    const id = newRequestId();
    expect(z.string().uuid().safeParse(id).success).toBe(true);
    expect(id[14]).toBe("4");
    expect(isRequestId(id)).toBe(true);
  });

  it("never repeats within a process", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newRequestId()));
    expect(ids.size).toBe(10_000);
  });
});

describe("trustsProxy", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["0", false],
    ["false", false],
    ["no", false],
    ["1", true],
    ["true", true],
    ["TRUE", true],
    ["yes", true],
  ])("TRUST_PROXY=%s → %s", (value, expected) => {
    setEnv(value);
    expect(trustsProxy()).toBe(expected);
  });
});

describe("clientIp", () => {
  it.each([
    // [TRUST_PROXY, peer header, X-Forwarded-For, expected]
    [undefined, "10.0.0.5", null, "10.0.0.5"],
    [undefined, "10.0.0.5", "203.0.113.9", "10.0.0.5"], // not trusted: a client can send anything
    ["0", "10.0.0.5", "203.0.113.9", "10.0.0.5"],
    ["1", "10.0.0.5", "203.0.113.9", "203.0.113.9"],
    ["1", "10.0.0.5", "1.2.3.4, 203.0.113.9", "203.0.113.9"], // the first entry came from the client: spoofable
    ["1", "10.0.0.5", "1.2.3.4,203.0.113.9 ", "203.0.113.9"],
    ["1", "10.0.0.5", "2001:db8::1", "2001:db8::1"],
    ["1", "10.0.0.5", "::ffff:198.51.100.7", "::ffff:198.51.100.7"],
    ["1", "10.0.0.5", "", "10.0.0.5"],
    ["1", "10.0.0.5", "1.2.3.4, ", "10.0.0.5"],
    ["1", "10.0.0.5", "not-an-address", "10.0.0.5"],
    ["1", "10.0.0.5", "<script>", "10.0.0.5"],
    ["1", "10.0.0.5", null, "10.0.0.5"],
    ["true", null, null, "unknown"],
    [undefined, null, null, "unknown"],
  ])("TRUST_PROXY=%s peer=%s X-Forwarded-For=%s → %s", (trust, peer, forwarded, expected) => {
    setEnv(trust);
    const headers = new Headers();
    if (peer !== null) headers.set(PEER_HEADER, peer);
    if (forwarded !== null) headers.set("x-forwarded-for", forwarded);
    expect(clientIp(headers)).toBe(expected);
  });
});

describe("isSecureRequest", () => {
  it.each([
    // [TRUST_PROXY, PUBLIC_URL, request URL, X-Forwarded-Proto, expected]
    [undefined, undefined, "http://localhost:5770/api/v1/auth/login", null, false],
    [undefined, undefined, "https://localhost:5770/api/v1/auth/login", null, true],
    [undefined, undefined, "http://localhost:5770/api/v1/auth/login", "https", false], // not trusted
    [undefined, "https://mocks.example.com", "http://localhost:5770/api/v1/auth/login", null, true],
    [undefined, "http://mocks.example.com", "http://localhost:5770/api/v1/auth/login", null, false],
    ["1", undefined, "http://localhost:5770/api/v1/auth/login", "https", true],
    ["1", undefined, "http://localhost:5770/api/v1/auth/login", "HTTPS", true],
    ["1", undefined, "http://localhost:5770/api/v1/auth/login", "http", false],
    ["1", undefined, "http://localhost:5770/api/v1/auth/login", "http, https", true], // the nearest proxy's word counts
    ["1", undefined, "http://localhost:5770/api/v1/auth/login", "https, http", false],
    ["1", undefined, "http://localhost:5770/api/v1/auth/login", null, false],
    ["1", undefined, "https://localhost:5770/api/v1/auth/login", null, false], // trusted proxy says nothing: not TLS
    ["1", "https://mocks.example.com", "http://localhost:5770/api/v1/auth/login", "http", true], // PUBLIC_URL wins
  ])("TRUST_PROXY=%s PUBLIC_URL=%s %s X-Forwarded-Proto=%s → %s", (trust, publicUrl, url, proto, expected) => {
    setEnv(trust, publicUrl);
    const headers = new Headers();
    if (proto !== null) headers.set("x-forwarded-proto", proto);
    expect(isSecureRequest(new Request(url, { headers }))).toBe(expected);
  });
});
