// Which proxy targets are this instance's own stub URL, for the PUBLIC_URL,
// PORT and HOST a deployment may have.
import os from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/server/env";
import { assertProxyTargetNotSelf, isOwnStubUrl } from "./proxy-target";

const saved = { PUBLIC_URL: process.env.PUBLIC_URL, PORT: process.env.PORT, HOST: process.env.HOST };

function withEnv(vars: Partial<Record<keyof typeof saved, string | undefined>>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
}

afterEach(() => withEnv(saved));

describe("isOwnStubUrl", () => {
  it.each([
    // [PUBLIC_URL, PORT, target, own?]
    [undefined, "5770", "http://localhost:5770/stubs/sandbox", true],
    [undefined, "5770", "http://127.0.0.1:5770/stubs", true],
    [undefined, "5770", "http://127.9.9.9:5770/stubs/a/b?x=1", true],
    [undefined, "5770", "http://[::1]:5770/stubs/sandbox", true],
    [undefined, "5770", "http://0.0.0.0:5770/stubs/sandbox", true],
    [undefined, "5770", "http://LOCALHOST.:5770//stubs/sandbox", true],
    [undefined, "5770", "http://app.localhost:5770/stubs/x", true],
    [undefined, "5770", `http://${os.hostname()}:5770/stubs/x`, true],
    [undefined, "5770", "http://localhost:5771/stubs/sandbox", false],
    [undefined, "5770", "http://localhost:5770/api/v1/mocks", false],
    [undefined, "5770", "http://localhost:5770/stubsandbox", false],
    [undefined, "80", "http://localhost/stubs/sandbox", true],
    [undefined, "5770", "http://example.com:5770/stubs/sandbox", false],
    ["https://mocks.example.com", "5770", "https://mocks.example.com/stubs/sandbox", true],
    ["https://mocks.example.com", "5770", "https://MOCKS.example.com:443/stubs", true],
    ["https://mocks.example.com", "5770", "http://mocks.example.com/stubs/sandbox", false],
    ["https://mocks.example.com/polymock/", "5770", "https://mocks.example.com/polymock/stubs/x", true],
    ["https://mocks.example.com/polymock/", "5770", "https://mocks.example.com/stubs/x", false],
    ["https://mocks.example.com", "5770", "https://other.example.com/stubs/sandbox", false],
    ["https://mocks.example.com", "5770", "not a url", false],
  ])("PUBLIC_URL=%s PORT=%s: %s → %s", (publicUrl, port, target, own) => {
    withEnv({ PUBLIC_URL: publicUrl, PORT: port, HOST: "0.0.0.0" });
    expect(isOwnStubUrl(target)).toBe(own);
  });

  it("counts the HOST the server is bound to as its own name", () => {
    withEnv({ PUBLIC_URL: undefined, PORT: "5770", HOST: "mock-box.internal" });
    expect(isOwnStubUrl("http://mock-box.internal:5770/stubs/x")).toBe(true);
  });
});

describe("assertProxyTargetNotSelf", () => {
  it("refuses with a 400 naming proxy.target, and lets other targets and mocks without a proxy pass", () => {
    withEnv({ PUBLIC_URL: undefined, PORT: "5770" });
    expect(() => assertProxyTargetNotSelf({ target: "http://localhost:5770/stubs/sandbox" })).toThrowError(
      expect.objectContaining({ status: 400, code: "validation", details: [expect.objectContaining({ field: "proxy.target" })] }),
    );
    expect(() => assertProxyTargetNotSelf({ target: "https://api.example.com/v1" })).not.toThrow();
    expect(() => assertProxyTargetNotSelf(undefined)).not.toThrow();
  });
});
