import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { LOGIN_START_CSP, loginStartPage, safeCallbackPath } from "./login-start";

const BASE = "http://localhost:5770";

describe("safeCallbackPath: only places on this site (open-redirect protection)", () => {
  it.each([
    [undefined, "/"],
    ["", "/"],
    ["/", "/"],
    ["/mocks?ns=team#top", "/mocks?ns=team#top"],
    ["/a/../settings", "/settings"],
    ["http://localhost:5770/tokens", "/tokens"],
  ])("accepts %j as %j", (raw, expected) => {
    expect(safeCallbackPath(raw, BASE)).toBe(expected);
  });

  it.each([
    "https://evil.example/steal",
    "//evil.example/steal",
    "/\\evil.example/steal",
    "\\\\evil.example",
    "https://localhost:5771/other-port",
    "https://localhost:5770/other-scheme",
    "javascript:alert(1)",
    "data:text/html,hi",
    "relative/path",
    "http://localhost:5770@evil.example/",
  ])("rejects %j", (raw) => {
    expect(safeCallbackPath(raw, BASE)).toBeNull();
  });
});

describe("the page that posts next-auth's sign-in form", () => {
  const html = loginStartPage({ slug: "corp-sso", providerName: `Corp "SSO" <script>`, csrfToken: "tok&en", callbackUrl: `/x?a=1&b="2"` });

  it("posts the CSRF token and the callback URL to the provider's next-auth sign-in endpoint", () => {
    expect(html).toContain('<form id="start" method="post" action="/api/auth/signin/corp-sso">');
    expect(html).toContain('name="csrfToken" value="tok&amp;en"');
    expect(html).toContain('name="callbackUrl" value="/x?a=1&amp;b=&quot;2&quot;"');
    expect(html).toContain("<noscript><button type=\"submit\">Continue to Corp &quot;SSO&quot; &lt;script&gt;</button></noscript>");
    expect(html).not.toContain('"SSO" <script>');
  });

  it("allows exactly its one inline script in the Content-Security-Policy", () => {
    const scripts = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    const hash = createHash("sha256").update(scripts[0]).digest("base64");
    expect(LOGIN_START_CSP).toContain(`script-src 'sha256-${hash}'`);
    expect(LOGIN_START_CSP).toContain("frame-ancestors 'none'");
  });
});
