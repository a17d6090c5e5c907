// OAuth 2.0 client credentials against a real token endpoint: client
// authentication in the header or the body, scope and audience, the cache and
// its expiry, shared in-flight fetches, failures named by endpoint, and the
// request's TLS setting applied to the token request.
import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestDefinition, type RequestDefinitionInput } from "@/server/contracts/tester-request";
import { echoHandler, readAll, startHttpsServer, startServer, type TestServer } from "@/server/testing/http-test-servers";
import { RequestBuildError } from "./build-error";
import { sendHttp } from "./http-client";
import { createOAuth2TokenResolver } from "./oauth2";
import { buildRequest, type BuildContext } from "./request-builder";
import { emptyScopes } from "./scopes";

let echo: TestServer;
beforeAll(async () => {
  echo = await startServer(echoHandler);
});
afterAll(() => echo.close());

async function prepare(input: Partial<RequestDefinitionInput>, ctx: Partial<BuildContext> = {}, env: Record<string, unknown> = {}) {
  return buildRequest(RequestDefinition.parse({ url: `${echo.url}/r`, ...input }), { scopes: { ...emptyScopes(), environment: env }, ...ctx });
}
const authorizations = (req: { headers: { key: string; value: string }[] }) => req.headers.filter((h) => h.key.toLowerCase() === "authorization").map((h) => h.value);

interface TokenCall {
  path: string;
  authorization?: string;
  form: Record<string, string>;
}

describe("OAuth 2.0 client credentials", () => {
  let tokens: TestServer;
  const calls: TokenCall[] = [];
  let issued = 0;
  const handler: http.RequestListener = (req, res) => {
    void readAll(req).then((body) => {
      const path = req.url ?? "/";
      calls.push({ path, authorization: req.headers.authorization, form: Object.fromEntries(new URLSearchParams(body.toString())) });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      issued++;
      switch (path) {
        case "/token":
          return json(200, { access_token: `tok-${issued}`, token_type: "Bearer", expires_in: 3600 });
        case "/token-short":
          return json(200, { access_token: `short-${issued}`, token_type: "Bearer", expires_in: 60 });
        case "/token-form":
          res.writeHead(200, { "content-type": "application/x-www-form-urlencoded" });
          return res.end(`access_token=form-${issued}&token_type=bearer`);
        case "/token-slow":
          return setTimeout(() => json(200, { access_token: `slow-${issued}`, expires_in: 3600 }), 100);
        case "/token-denied":
          return json(401, { error: "invalid_client", error_description: "Client authentication failed" });
        case "/token-empty":
          return json(200, { token_type: "Bearer" });
        default:
          return json(404, {});
      }
    });
  };
  beforeAll(async () => {
    tokens = await startServer(handler);
  });
  afterAll(() => tokens.close());

  const oauth = (path: string, extra: Record<string, unknown> = {}): RequestDefinitionInput["auth"] => ({
    type: "oauth2",
    oauth2: { accessTokenUrl: `{{tokenBase}}${path}`, clientId: "{{clientId}}", clientSecret: "s3cret:&", ...extra },
  });
  const env = () => ({ tokenBase: tokens.url, clientId: "my client" });

  it("client authentication in the header, with scope and audience; the token goes out as Bearer", async () => {
    calls.length = 0;
    const resolver = createOAuth2TokenResolver();
    const req = await prepare({ auth: oauth("/token", { scope: "read write", audience: "https://api.test" }) }, { resolveOAuth2Token: resolver }, env());
    expect(calls).toHaveLength(1);
    expect(calls[0].path).toBe("/token");
    expect(calls[0].authorization).toBe(`Basic ${Buffer.from("my+client:s3cret%3A%26").toString("base64")}`);
    expect(calls[0].form).toEqual({ grant_type: "client_credentials", scope: "read write", audience: "https://api.test" });
    const token = authorizations(req)[0];
    expect(token).toMatch(/^Bearer tok-\d+$/);
    const res = await sendHttp(req);
    expect(JSON.parse(res.body).headers).toContainEqual(["Authorization", token]);
  });

  it("client authentication in the body", async () => {
    calls.length = 0;
    await prepare({ auth: oauth("/token", { clientAuthentication: "body" }) }, { resolveOAuth2Token: createOAuth2TokenResolver() }, env());
    expect(calls[0].authorization).toBeUndefined();
    expect(calls[0].form).toEqual({ grant_type: "client_credentials", client_id: "my client", client_secret: "s3cret:&" });
  });

  it("reuses a cached token until expires_in, per url, client, scope and audience (and secret)", async () => {
    let now = 1_000_000;
    const resolver = createOAuth2TokenResolver({ now: () => now });
    const ctx = { resolveOAuth2Token: resolver };
    calls.length = 0;
    const first = authorizations(await prepare({ auth: oauth("/token-short") }, ctx, env()));
    const second = authorizations(await prepare({ auth: oauth("/token-short") }, ctx, env()));
    expect(second).toEqual(first);
    expect(calls).toHaveLength(1);

    await prepare({ auth: oauth("/token-short", { scope: "other" }) }, ctx, env());
    await prepare({ auth: oauth("/token-short", { audience: "other" }) }, ctx, env());
    await prepare({ auth: oauth("/token-short") }, ctx, { ...env(), clientId: "another" });
    await prepare({ auth: oauth("/token-short", { clientSecret: "different" }) }, ctx, env());
    expect(calls).toHaveLength(5);

    now += 45_000; // still valid
    expect(authorizations(await prepare({ auth: oauth("/token-short") }, ctx, env()))).toEqual(first);
    now += 10_000; // within the refresh margin of its 60 s
    const renewed = authorizations(await prepare({ auth: oauth("/token-short") }, ctx, env()));
    expect(renewed).not.toEqual(first);
    expect(calls).toHaveLength(6);
  });

  it("concurrent requests share one token request", async () => {
    calls.length = 0;
    const ctx = { resolveOAuth2Token: createOAuth2TokenResolver() };
    const built = await Promise.all(Array.from({ length: 8 }, () => prepare({ auth: oauth("/token-slow") }, ctx, env())));
    expect(calls).toHaveLength(1);
    expect(new Set(built.map((r) => authorizations(r)[0])).size).toBe(1);
  });

  it("accepts a form-encoded token answer", async () => {
    expect(authorizations(await prepare({ auth: oauth("/token-form") }, { resolveOAuth2Token: createOAuth2TokenResolver() }, env()))[0]).toMatch(/^Bearer form-\d+$/);
  });

  it("a user's Authorization header wins, and no token is fetched", async () => {
    calls.length = 0;
    const req = await prepare({ headers: [{ key: "Authorization", value: "Bearer mine" }], auth: oauth("/token") }, { resolveOAuth2Token: createOAuth2TokenResolver() }, env());
    expect(authorizations(req)).toEqual(["Bearer mine"]);
    expect(calls).toHaveLength(0);
  });

  it.each([
    ["/token-denied", /token endpoint http:\/\/127\.0\.0\.1:\d+\/token-denied answered 401 Unauthorized: invalid_client \(Client authentication failed\)/],
    ["/token-empty", /answered 200 OK, but the answer holds no access_token/],
    ["/nowhere", /answered 404 Not Found/],
  ])("a failing token endpoint (%s) is a clear error naming it", async (path, message) => {
    const err = await prepare({ auth: oauth(path) }, { resolveOAuth2Token: createOAuth2TokenResolver() }, env()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestBuildError);
    expect(err).toMatchObject({ code: "oauth2" });
    expect((err as Error).message).toMatch(message);
  });

  it("an unreachable token endpoint is reported with the client's reason", async () => {
    const gone = await startServer(echoHandler);
    await gone.close();
    const err = await prepare({ auth: oauth("/token") }, { resolveOAuth2Token: createOAuth2TokenResolver() }, { ...env(), tokenBase: gone.url }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "oauth2" });
    expect((err as Error).message).toMatch(new RegExp(`Could not get an OAuth 2.0 token from ${gone.url}/token: .*refused the connection`));
  });

  it("a failure is not cached", async () => {
    calls.length = 0;
    const ctx = { resolveOAuth2Token: createOAuth2TokenResolver() };
    await prepare({ auth: oauth("/token-denied") }, ctx, env()).catch(() => {});
    await prepare({ auth: oauth("/token-denied") }, ctx, env()).catch(() => {});
    expect(calls).toHaveLength(2);
  });

  it("the request's TLS setting applies to the token request", async () => {
    const secure = await startHttpsServer(handler);
    try {
      const verify = await prepare({ auth: oauth("/token") }, { resolveOAuth2Token: createOAuth2TokenResolver() }, { ...env(), tokenBase: secure.url }).catch((e: unknown) => e);
      expect((verify as Error).message).toMatch(/self-signed/);
      const lax = await prepare({ settings: { verifyTls: false }, auth: oauth("/token") }, { resolveOAuth2Token: createOAuth2TokenResolver() }, { ...env(), tokenBase: secure.url });
      expect(authorizations(lax)[0]).toMatch(/^Bearer tok-/);
    } finally {
      await secure.close();
    }
  });

  it("without a resolver in the context, the process-wide one is used", async () => {
    const req = await buildRequest(RequestDefinition.parse({ url: `${echo.url}/r`, auth: oauth("/token") }), { scopes: { ...emptyScopes(), environment: env() } });
    expect(authorizations(req)[0]).toMatch(/^Bearer tok-/);
  });
});
