// Auth helpers through the request builder: the inherit chain, bearer,
// basic, API key in a header or the query, and a user's header winning.
// OAuth 2.0 has its own file (oauth2.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestAuth, RequestDefinition, type RequestDefinitionInput } from "@/server/contracts/tester-request";
import { echoHandler, startServer, type TestServer } from "@/server/testing/http-test-servers";
import { effectiveAuth } from "./auth-helpers";
import { sendHttp } from "./http-client";
import type { ResolveOAuth2Token } from "./oauth2";
import { buildRequest, type BuildContext } from "./request-builder";
import { emptyScopes } from "./scopes";

const A = (input: Partial<RequestAuth> & { type: RequestAuth["type"] }) => RequestAuth.parse(input);

describe("effectiveAuth", () => {
  const bearer = A({ type: "bearer", bearer: { token: "t" } });
  const basic = A({ type: "basic", basic: { username: "u", password: "p" } });
  const none = A({ type: "none" });
  const inherit = A({ type: "inherit" });
  it.each([
    ["the request's own", bearer, [basic], bearer],
    ["inherit: the folder's", inherit, [basic, bearer], basic],
    ["inherit through an inheriting folder to the collection", inherit, [inherit, bearer], bearer],
    ["a none on the way stops the walk", inherit, [none, bearer], undefined],
    ["the request's none", none, [bearer], undefined],
    ["inherit with nothing above", inherit, [], undefined],
    ["inherit all the way up", inherit, [inherit, inherit], undefined],
  ])("%s", (_name, own, chain, expected) => {
    expect(effectiveAuth(own, chain)).toEqual(expected);
  });
});

let echo: TestServer;
beforeAll(async () => {
  echo = await startServer(echoHandler);
});
afterAll(() => echo.close());

const neverResolve: ResolveOAuth2Token = () => Promise.reject(new Error("no token expected"));

async function prepare(input: Partial<RequestDefinitionInput>, ctx: Partial<BuildContext> = {}, env: Record<string, unknown> = {}) {
  return buildRequest(RequestDefinition.parse({ url: `${echo.url}/r`, ...input }), { scopes: { ...emptyScopes(), environment: env }, resolveOAuth2Token: neverResolve, ...ctx });
}
const authorizations = (req: { headers: { key: string; value: string }[] }) => req.headers.filter((h) => h.key.toLowerCase() === "authorization").map((h) => h.value);

describe("bearer, basic, API key", () => {
  it("bearer with a variable", async () => {
    expect(authorizations(await prepare({ auth: { type: "bearer", bearer: { token: "{{token}}" } } }, {}, { token: "abc" }))).toEqual(["Bearer abc"]);
  });

  it("an empty bearer token adds nothing", async () => {
    expect(authorizations(await prepare({ auth: { type: "bearer", bearer: { token: "{{blank}}" } } }, {}, { blank: "" }))).toEqual([]);
  });

  it("basic encodes user:password as UTF-8", async () => {
    const req = await prepare({ auth: { type: "basic", basic: { username: "{{user}}", password: "pässword" } } }, {}, { user: "zoë" });
    expect(authorizations(req)).toEqual([`Basic ${Buffer.from("zoë:pässword").toString("base64")}`]);
  });

  it("an API key in a header", async () => {
    const req = await prepare({ auth: { type: "apikey", apikey: { key: "X-Api-Key", value: "{{key}}", in: "header" } } }, {}, { key: "k1" });
    expect(req.headers).toContainEqual({ key: "X-Api-Key", value: "k1" });
  });

  it("an API key in the query, encoded", async () => {
    const req = await prepare({ url: `${echo.url}/r?x=1`, auth: { type: "apikey", apikey: { key: "api key", value: "a&b", in: "query" } } });
    expect(req.url).toBe(`${echo.url}/r?x=1&api%20key=a%26b`);
    const res = await sendHttp(req);
    expect(new URL(JSON.parse(res.body).url, "http://x").searchParams.get("api key")).toBe("a&b");
  });

  it("a user's header wins over the helper's", async () => {
    const headers = [{ key: "authorization", value: "Custom mine" }, { key: "x-api-key", value: "mine" }];
    expect(authorizations(await prepare({ headers, auth: { type: "bearer", bearer: { token: "t" } } }))).toEqual(["Custom mine"]);
    expect(authorizations(await prepare({ headers, auth: { type: "basic", basic: { username: "u", password: "p" } } }))).toEqual(["Custom mine"]);
    const key = await prepare({ headers, auth: { type: "apikey", apikey: { key: "X-Api-Key", value: "helper" } } });
    expect(key.headers.filter((h) => h.key.toLowerCase() === "x-api-key")).toEqual([{ key: "x-api-key", value: "mine" }]);
  });

  it("inherit takes the folder's, then the collection's", async () => {
    const folder = A({ type: "bearer", bearer: { token: "folder" } });
    const collection = A({ type: "basic", basic: { username: "c", password: "" } });
    expect(authorizations(await prepare({}, { inheritedAuth: [folder, collection] }))).toEqual(["Bearer folder"]);
    expect(authorizations(await prepare({}, { inheritedAuth: [A({ type: "inherit" }), collection] }))).toEqual([`Basic ${Buffer.from("c:").toString("base64")}`]);
    expect(authorizations(await prepare({}, { inheritedAuth: [A({ type: "none" }), collection] }))).toEqual([]);
  });
});
