import { beforeAll, describe, expect, it } from "vitest";
import * as providers from "@/app/api/v1/admin/auth/providers/route";
import * as provider from "@/app/api/v1/admin/auth/providers/[id]/route";
import * as publicProviders from "@/app/api/v1/auth/providers/route";
import { db } from "@/server/db/client";
import { decryptSecret } from "@/server/lib/crypto";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

let admin = "";
beforeAll(async () => {
  admin = await sessionCookie((await makeUser({ role: "admin" })).user.id);
});

describe("identity providers", () => {
  it("creates OIDC, GitHub and LDAP providers with encrypted secrets that are never returned", async () => {
    const oidc = await call(providers.POST, "/", {
      method: "POST",
      cookie: admin,
      body: { type: "oidc", slug: "corp", name: "Corp SSO", config: { issuer: "https://sso.example.com", clientId: "polymock" }, clientSecret: "s3cret" },
    });
    expect(oidc.status).toBe(201);
    expect(oidc.body).toMatchObject({ slug: "corp", type: "oidc", hasSecret: true, enabled: true, loginUrl: "http://localhost:5770/api/v1/auth/oauth/login/corp" });
    expect(oidc.body.config).toMatchObject({ scopes: "openid email profile", usernameClaim: "preferred_username" });
    expect(JSON.stringify(oidc.body)).not.toContain("s3cret");
    const row = await db().identityProvider.findUniqueOrThrow({ where: { id: oidc.body.id } });
    expect(row.secretEnc).not.toContain("s3cret");
    expect(decryptSecret(row.secretEnc!)).toBe("s3cret");

    const gh = await call(providers.POST, "/", { method: "POST", cookie: admin, body: { type: "github", slug: "github", name: "GitHub", config: { clientId: "abc" }, clientSecret: "x" } });
    expect(gh.status).toBe(201);
    const ldap = await call(providers.POST, "/", { method: "POST", cookie: admin, body: { type: "ldap", slug: "dir", name: "Directory", config: { url: "ldap://127.0.0.1:1389", baseDn: "dc=example,dc=org" }, bindPassword: "pw" } });
    expect(ldap.status).toBe(201);
    expect(ldap.body.loginUrl).toBeNull();

    const list = await call(providers.GET, "/", { cookie: admin });
    expect(list.body.count).toBe(3);
    const pub = await call(publicProviders.GET, "/");
    expect(pub.status).toBe(200);
    expect(pub.body.providers.map((p: { slug: string }) => p.slug).sort()).toEqual(["corp", "dir", "github"]);
    expect(JSON.stringify(pub.body)).not.toContain("clientId");
  });

  it("validates per type, refuses duplicates, unsupported types and bad URLs", async () => {
    const cases = [
      { type: "oidc", slug: "x1", name: "X", config: { issuer: "not a url", clientId: "a" }, clientSecret: "s" },
      { type: "oidc", slug: "x2", name: "X", config: { issuer: "file:///etc/passwd", clientId: "a" }, clientSecret: "s" },
      { type: "saml", slug: "x3", name: "X", config: {} },
      { type: "ldap", slug: "x4", name: "X", config: { url: "http://nope", baseDn: "dc=x" } },
      { type: "github", slug: "Bad Slug", name: "X", config: { clientId: "a" }, clientSecret: "s" },
    ];
    for (const body of cases) {
      const res = await call(providers.POST, "/", { method: "POST", cookie: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("validation");
    }
    const dup = await call(providers.POST, "/", { method: "POST", cookie: admin, body: { type: "github", slug: "corp", name: "Again", config: { clientId: "a" }, clientSecret: "s" } });
    expect(dup.status).toBe(409);
  });

  it("updates (merging config, keeping the secret unless given), disables and deletes", async () => {
    const created = (await call(providers.POST, "/", { method: "POST", cookie: admin, body: { type: "oidc", slug: "upd", name: "Upd", config: { issuer: "https://a.example.com", clientId: "one" }, clientSecret: "first" } })).body;
    const updated = await call(provider.PUT, "/", { method: "PUT", cookie: admin, params: { id: created.id }, body: { name: "Updated", enabled: false, config: { clientId: "two" } } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: "Updated", enabled: false, config: { issuer: "https://a.example.com", clientId: "two" }, hasSecret: true });
    const row = await db().identityProvider.findUniqueOrThrow({ where: { id: created.id } });
    expect(decryptSecret(row.secretEnc!)).toBe("first");
    const badMerge = await call(provider.PUT, "/", { method: "PUT", cookie: admin, params: { id: created.id }, body: { config: { issuer: "nope" } } });
    expect(badMerge.status).toBe(400);
    const pub = await call(publicProviders.GET, "/");
    expect(pub.body.providers.some((p: { slug: string }) => p.slug === "upd")).toBe(false);
    expect((await call(provider.DELETE, "/", { method: "DELETE", cookie: admin, params: { id: created.id } })).status).toBe(200);
    expect((await call(provider.DELETE, "/", { method: "DELETE", cookie: admin, params: { id: created.id } })).status).toBe(404);
  });

  it("is admin-only", async () => {
    const plain = await sessionCookie((await makeUser()).user.id);
    expect((await call(providers.GET, "/", { cookie: plain })).status).toBe(403);
  });
});
