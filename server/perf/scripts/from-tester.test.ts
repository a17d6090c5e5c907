// API tester collections as k6 scripts, run on the real load engine against
// a real HTTP server: every request arrives as the tester would send it
// (auth helpers after `inherit`, body modes, GraphQL, SOAP, settings),
// folders are groups, secrets travel as the run's environment and never in
// the script, and what needs a dedicated load script is refused by name.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { RequestAuth, RequestDefinition, type RequestDefinitionInput, Variable } from "@/server/contracts/tester-request";
import { inspectLoadScript } from "@/server/perf/k6/plan";
import { folderChain } from "@/server/tester/folder-chain";
import { buildRequest } from "@/server/tester/request-builder";
import { emptyScopes } from "@/server/tester/scopes";
import { scriptFromTester, type TesterCollection, type TesterScriptInput } from "./from-tester";
import { ScriptInputError } from "./script-input-error";
import { runOnce, type Seen, startTarget, type Target } from "./test-helpers";

let target: Target;
const tokenRequests: Seen[] = [];
beforeAll(async () => {
  target = await startTarget((s) => {
    if (s.path === "/oauth/token") {
      tokenRequests.push(s);
      return { body: JSON.stringify({ access_token: `tok-${tokenRequests.length}`, expires_in: 3600 }) };
    }
    return undefined;
  });
});
afterAll(() => target.close());

type AuthInput = z.input<typeof RequestAuth>;

interface FolderInput {
  id: string;
  parentId?: string;
  name: string;
  auth?: AuthInput;
  scripts?: { preRequest?: string; test?: string };
}

let ids = 0;
function collection(name: string, opts: { folders?: FolderInput[]; requests: { name: string; folderId?: string; def: RequestDefinitionInput }[]; variables?: Partial<Variable>[]; auth?: AuthInput; scripts?: { preRequest?: string; test?: string } }): TesterCollection {
  const folders = (opts.folders ?? []).map((f) => ({ id: f.id, parentId: f.parentId ?? null, name: f.name, auth: RequestAuth.parse(f.auth ?? {}), scripts: f.scripts ?? {} }));
  const pathOf = (folderId: string | undefined): string[] => {
    const f = folders.find((x) => x.id === folderId);
    return f ? [...pathOf(f.parentId ?? undefined), f.name] : [];
  };
  return {
    id: `c-${++ids}`,
    name,
    auth: RequestAuth.parse(opts.auth ?? { type: "none" }),
    scripts: opts.scripts ?? {},
    variables: (opts.variables ?? []).map((v) => Variable.parse(v)),
    folders,
    requests: opts.requests.map((r) => ({ id: `r-${++ids}`, name: r.name, folderId: r.folderId ?? null, path: pathOf(r.folderId), definition: RequestDefinition.parse(r.def) })),
  };
}

const run = (input: Omit<TesterScriptInput, "mode"> & { mode?: TesterScriptInput["mode"] }) => scriptFromTester({ mode: "run", ...input });

describe("scriptFromTester", () => {
  it("sends every request as the tester would, folders as groups, secrets beside the script", async () => {
    target.seen.length = 0;
    const shop = collection("Shop", {
      auth: { type: "bearer", bearer: { token: "{{token}}" } },
      variables: [
        { key: "baseUrl", value: "{{host}}/api" },
        { key: "host", value: target.base },
        { key: "adminPass", value: "s3cr`et${x}", secret: true },
      ],
      folders: [
        { id: "users", name: "Users" },
        { id: "admin", parentId: "users", name: "Admin", auth: { type: "basic", basic: { username: "root", password: "{{adminPass}}" } } },
      ],
      requests: [
        { name: "Create user", folderId: "admin", def: { method: "POST", url: "{{baseUrl}}/users", body: { mode: "raw", raw: '{"name": "{{user}}", "n": 1}', language: "json" }, settings: { timeoutMs: 5000 } } },
        {
          name: "List users",
          folderId: "users",
          def: {
            url: "{{baseUrl}}/users#top",
            params: [
              { key: "page", value: "1" },
              { key: "q", value: "{{user}}" },
              { key: "off", value: "x", enabled: false },
            ],
            headers: [
              { key: "X-Trace", value: "abc" },
              { key: "X-Off", value: "no", enabled: false },
            ],
          },
        },
        { name: "Login form", def: { method: "POST", url: "{{baseUrl}}/login", auth: { type: "none" }, body: { mode: "urlencoded", urlencoded: [{ key: "user", value: "{{user}}" }, { key: "pw", value: "a&b c" }] }, settings: { followRedirects: false } } },
        { name: "Key in query", def: { url: "{{baseUrl}}/q", auth: { type: "apikey", apikey: { key: "api_key", value: "{{apiKey}}", in: "query" } } } },
        { name: "Key in header", def: { url: "{{baseUrl}}/h", auth: { type: "apikey", apikey: { key: "X-API-Key", value: "{{apiKey}}" } } } },
        { name: "Own header wins", def: { url: "{{baseUrl}}/own", headers: [{ key: "Authorization", value: "Custom 1" }] } },
        { name: "GraphQL", def: { kind: "graphql", method: "GET", url: "{{baseUrl}}/graphql", body: { mode: "graphql", graphql: { query: "query ($id: ID!) { user(id: $id) { name } }", variables: '{"id": "{{user}}"}', operationName: "U" } } } },
        { name: "GraphQL GET", def: { method: "GET", url: "{{baseUrl}}/graphql", body: { mode: "graphql", graphql: { query: "{ me { id } }", variables: { n: 1 } } } } },
        { name: "SOAP 1.1", def: { kind: "soap", url: "{{baseUrl}}/soap", soap: { action: "urn:Get", version: "1.1" }, body: { mode: "raw", raw: "<Envelope>{{user}}</Envelope>" } } },
        { name: "SOAP 1.2", def: { kind: "soap", url: "{{baseUrl}}/soap12", soap: { action: "urn:Put", version: "1.2" }, body: { mode: "raw", raw: "<Envelope/>" } } },
      ],
    });
    const g = run({ collections: [shop], environment: { name: "Staging", values: { token: "t-secret", user: "ann", apiKey: "k1" }, secrets: ["token"] } });

    // Secrets (and what is built from them) travel beside the script.
    expect(g.script).not.toContain("t-secret");
    expect(g.script).not.toContain("s3cr");
    expect(g.env).toEqual({ token: "t-secret", adminPass: "s3cr`et${x}" });
    expect(g.variables.find((v) => v.name === "baseUrl")).toMatchObject({ default: `${target.base}/api`, secret: false });
    expect(g.options).toEqual({ vus: 10, duration: "30s" });

    if (process.env.SHOW_SCRIPT) console.log(g.script);
    const result = await runOnce(g.script, { env: g.env });
    const got = Object.fromEntries(target.seen.map((s) => [s.path, s]));
    expect(target.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      "POST /api/users",
      "GET /api/users?page=1&q=ann",
      "POST /api/login",
      "GET /api/q?api_key=k1",
      "GET /api/h",
      "GET /api/own",
      "POST /api/graphql",
      "GET /api/graphql?query=%7B%20me%20%7B%20id%20%7D%20%7D&variables=%7B%22n%22:1%7D",
      "POST /api/soap",
      "POST /api/soap12",
    ]);
    const create = got["/api/users"];
    expect(create.headers.authorization).toBe(`Basic ${Buffer.from("root:s3cr`et${x}").toString("base64")}`);
    expect(create.headers["content-type"]).toBe("application/json");
    expect(create.body.toString()).toBe('{"name": "ann", "n": 1}');
    const list = got["/api/users?page=1&q=ann"];
    expect(list.headers.authorization).toBe("Bearer t-secret");
    expect(list.headers["x-trace"]).toBe("abc");
    expect(list.headers["x-off"]).toBeUndefined();
    const login = got["/api/login"];
    expect(login.headers.authorization).toBeUndefined();
    expect(login.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(login.body.toString()))).toEqual({ user: "ann", pw: "a&b c" });
    expect(got["/api/q?api_key=k1"].headers.authorization).toBeUndefined(); // its own auth replaces the collection's
    expect(got["/api/h"].headers["x-api-key"]).toBe("k1");
    expect(got["/api/own"].headers.authorization).toBe("Custom 1");
    expect(JSON.parse(got["/api/graphql"].body.toString())).toEqual({ query: "query ($id: ID!) { user(id: $id) { name } }", variables: { id: "ann" }, operationName: "U" });
    expect(got["/api/graphql"].headers["content-type"]).toBe("application/json");
    expect(got["/api/soap"].headers).toMatchObject({ "content-type": "text/xml; charset=utf-8", soapaction: '"urn:Get"' });
    expect(got["/api/soap"].body.toString()).toBe("<Envelope>ann</Envelope>");
    expect(got["/api/soap12"].headers["content-type"]).toBe('application/soap+xml; charset=utf-8; action="urn:Put"');
    expect(g.script).toContain('timeout: "5s"');
    expect(g.script).toContain("redirects: 0");

    // Byte for byte what the API tester's own request builder makes of each request.
    const scopes = emptyScopes();
    scopes.collection = Object.fromEntries(shop.variables.map((v) => [v.key, v.value]));
    scopes.environment = { token: "t-secret", user: "ann", apiKey: "k1" };
    for (const [i, r] of shop.requests.entries()) {
      const chain = folderChain(shop.folders, r.folderId).reverse();
      const built = await buildRequest(r.definition, { scopes, inheritedAuth: [...chain.map((f) => f.auth!), shop.auth] });
      const sent = target.seen[i];
      const url = new URL(built.url);
      expect(`${sent.method} ${sent.path}`, r.name).toBe(`${built.method} ${url.pathname}${url.search}`);
      // k6 form-encodes an object body itself (a space as %20 here, + in the tester): the same form either way.
      if (r.definition.body.mode === "urlencoded") expect([...new URLSearchParams(sent.body.toString())], r.name).toEqual([...new URLSearchParams(built.body!.toString())]);
      else expect(sent.body.toString(), r.name).toBe(built.body?.toString() ?? "");
      const testerDefaults = new Set(["user-agent", "accept", "accept-encoding", "content-length"]);
      for (const h of built.headers.filter((x) => !testerDefaults.has(x.key.toLowerCase()))) expect(sent.headers[h.key.toLowerCase()], `${r.name}: ${h.key}`).toBe(h.value);
    }

    // Folders are k6 groups, nested as in the collection.
    const users = result.summary.root_group.groups.find((x) => x.name === "Users")!;
    expect(users.groups.map((x) => x.name)).toEqual(["Admin"]);
    expect(users.groups[0].checks.map((c) => c.name)).toEqual(["Create user: status is 2xx"]);
    expect(users.checks.map((c) => c.name)).toEqual(["List users: status is 2xx"]);
    expect(result.summary.root_group.checks).toHaveLength(8);
  });

  it("OAuth 2.0 client credentials: setup() fetches each token once, every request sends it", async () => {
    target.seen.length = 0;
    tokenRequests.length = 0;
    const oauth = { type: "oauth2", oauth2: { accessTokenUrl: "{{host}}/oauth/token", clientId: "app", clientSecret: "{{clientSecret}}", scope: "read" } } as const;
    const c = collection("OAuth", {
      auth: oauth,
      variables: [
        { key: "host", value: target.base },
        { key: "clientSecret", value: "cs", secret: true },
      ],
      requests: [
        { name: "One", def: { url: "{{host}}/one" } },
        { name: "Two", def: { url: "{{host}}/two", auth: oauth } },
      ],
    });
    const g = run({ collections: [c] });
    expect(g.script.match(/clientCredentialsToken\(/g)).toHaveLength(2); // the helper and one token
    await runOnce(g.script, { env: g.env, iterations: 3 });
    expect(tokenRequests).toHaveLength(1);
    expect(tokenRequests[0].headers.authorization).toBe(`Basic ${Buffer.from("app:cs").toString("base64")}`);
    expect(Object.fromEntries(new URLSearchParams(tokenRequests[0].body.toString()))).toEqual({ grant_type: "client_credentials", scope: "read" });
    const sent = target.seen.filter((s) => s.path !== "/oauth/token");
    expect(sent).toHaveLength(6);
    expect(new Set(sent.map((s) => s.headers.authorization))).toEqual(new Set(["Bearer tok-1"]));
  });

  const awkward = () =>
    collection("Awkward", {
      folders: [{ id: "f", name: "Scripted folder", scripts: { test: "pm.test('ok', () => {});" } }],
      requests: [
        { name: "Plain", def: { url: `${target.base}/plain` } },
        { name: "Comment only", def: { url: `${target.base}/comment`, scripts: { preRequest: "// nothing yet\n/* later */\n", test: "  " } } },
        { name: "Scripted", def: { url: `${target.base}/scripted`, scripts: { preRequest: "pm.variables.set('x', 1);" } } },
        { name: "In a scripted folder", folderId: "f", def: { url: `${target.base}/folder` } },
        { name: "Upload", def: { method: "POST", url: `${target.base}/upload`, body: { mode: "formdata", formdata: [{ key: "note", value: "hi {{who}}" }, { key: "file", type: "file", fileName: "a.bin", contentBase64: "AAE=" }] } } },
        { name: "Bytes", def: { method: "PUT", url: `${target.base}/bytes`, body: { mode: "binary", binary: { contentType: "image/png", contentBase64: Buffer.from([0, 1, 2, 255, 254]).toString("base64") } } } },
      ],
      variables: [{ key: "who", value: "bob" }],
    });

  it("a run refuses the requests that need a dedicated load script, naming each and why", () => {
    let error: ScriptInputError | undefined;
    try {
      run({ collections: [awkward()] });
    } catch (e) {
      error = e as ScriptInputError;
    }
    expect(error).toBeInstanceOf(ScriptInputError);
    expect(error!.message).toMatch(/^4 requests cannot be load tested from the collection: Scripted needs a dedicated load script: its pre-request script; /);
    expect(error!.problems.map((p) => [p.request, p.message.slice(p.request!.length + 1)])).toEqual([
      ["Scripted", "needs a dedicated load script: its pre-request script"],
      ["Scripted folder / In a scripted folder", 'needs a dedicated load script: folder "Scripted folder"\'s test script'],
      ["Upload", "needs a dedicated load script: a multipart (form-data) body"],
      ["Bytes", "needs a dedicated load script: a binary (file) body"],
    ]);
    expect(error!.problems.every((p) => p.requestId?.startsWith("r-"))).toBe(true);
  });

  it("skipUnsupported leaves them out with a warning each; the rest runs", async () => {
    target.seen.length = 0;
    const g = run({ collections: [awkward()], skipUnsupported: true });
    expect(g.warnings.map((w) => w.message)).toEqual([
      "Scripted: left out, needs a dedicated load script: its pre-request script",
      'Scripted folder / In a scripted folder: left out, needs a dedicated load script: folder "Scripted folder"\'s test script',
      "Upload: left out, needs a dedicated load script: a multipart (form-data) body",
      "Bytes: left out, needs a dedicated load script: a binary (file) body",
    ]);
    await runOnce(g.script);
    expect(target.seen.map((s) => s.path)).toEqual(["/plain", "/comment"]);
  });

  it("a script to edit converts what it can: scripts become notes, bodies are embedded", async () => {
    target.seen.length = 0;
    const g = scriptFromTester({ collections: [awkward()], mode: "edit" });
    expect(g.script).toContain("// Not converted: its pre-request script (pm.* scripts do not run in k6): write what it does here.");
    expect(g.warnings.map((w) => w.message)).toContain('Upload: the file part(s) "file" of the form-data body were left out: add them with open(path, "b") in the init code');
    await runOnce(g.script);
    expect(target.seen.map((s) => s.path)).toEqual(["/plain", "/comment", "/scripted", "/folder", "/upload", "/bytes"]);
    const upload = target.seen[4];
    const boundary = /boundary=(.+)$/.exec(upload.headers["content-type"]!)![1];
    expect(upload.body.toString()).toBe(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi bob\r\n--${boundary}--\r\n`);
    expect([...target.seen[5].body]).toEqual([0, 1, 2, 255, 254]);
    expect(target.seen[5].headers["content-type"]).toBe("image/png");
  });

  it("several collections: a group each; one name with two values gets two __ENV names", async () => {
    target.seen.length = 0;
    const a = collection("A", { variables: [{ key: "base", value: `${target.base}/a` }], requests: [{ name: "ra", def: { url: "{{base}}/x" } }] });
    const b = collection("B", { variables: [{ key: "base", value: `${target.base}/b` }], requests: [{ name: "rb1", def: { url: "{{base}}/y" } }, { name: "rb2", def: { url: "{{base}}/z" } }] });
    b.requestIds = [b.requests[1].id];
    const g = run({ collections: [a, b] });
    expect(g.variables.map((v) => [v.name, v.default])).toEqual([
      ["base", `${target.base}/a`],
      ["base_2", `${target.base}/b`],
    ]);
    const result = await runOnce(g.script);
    expect(target.seen.map((s) => s.path)).toEqual(["/a/x", "/b/z"]);
    expect(result.summary.root_group.groups.map((x) => x.name)).toEqual(["A", "B"]);
  });

  it("environment values win over the collection's; TLS settings, rps and dynamic variables", async () => {
    const c = collection("Env", {
      variables: [{ key: "base", value: "http://collection.invalid" }],
      requests: [
        { name: "Secure", def: { url: "{{base}}/s?mail={{$randomEmail}}&id={{$guid}}&t={{$timestamp}}" } },
        { name: "Insecure", def: { url: "{{base}}/i", settings: { verifyTls: false } } },
      ],
    });
    const g = run({ collections: [c], environment: { values: { base: "https://env.example" }, secrets: [] }, options: { vus: 2, duration: "10s", rps: 10 } });
    expect(g.variables.map((v) => [v.name, v.default])).toEqual([["base", "https://env.example"]]);
    expect(g.options).toMatchObject({ insecureSkipTLSVerify: true, scenarios: { default: { executor: "constant-arrival-rate", rate: 10, timeUnit: "2s" } } });
    expect(g.warnings.map((w) => w.message)).toEqual([
      "1 of 2 requests skips TLS verification: insecureSkipTLSVerify applies to the whole run",
      "{{$randomEmail}} has no k6 equivalent: one value was drawn when the script was generated, so every iteration sends the same one",
    ]);
    expect(g.script).toContain("${uuid()}");
    expect(g.script).toContain("${Math.floor(Date.now() / 1000)}");
    const plan = await inspectLoadScript({ source: g.script });
    expect(plan.maxVus).toBe(2);
  });

  it("an empty selection is refused", () => {
    const c = collection("Empty", { requests: [] });
    expect(() => run({ collections: [c] })).toThrow(/no request to load test/);
  });
});
