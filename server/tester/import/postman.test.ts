// The Postman converter on real exports (Newman's own fixtures, v2.0 and
// v2.1: __fixtures__/newman) and on the v2.1 shapes those files do not
// carry (bearer/apikey/oauth2 auth lists, raw language, graphql, files).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NativeCollectionDocument, type NativeItem } from "@/server/contracts/tester-native-format";
import { AppError } from "@/server/errors";
import { convertPostmanCollection } from "./postman";
import { convertPostmanEnvironment } from "./postman-environment";

const fixture = (name: string) => JSON.parse(readFileSync(path.join(import.meta.dirname, "__fixtures__/newman", name), "utf8"));
const outline = (items: NativeItem[]): unknown[] => items.map((i) => (i.type === "folder" ? { [i.name]: outline(i.items) } : i.name));
const find = (items: NativeItem[], name: string): NativeItem | undefined => {
  for (const i of items) {
    if (i.name === name) return i;
    if (i.type === "folder") {
      const hit = find(i.items, name);
      if (hit) return hit;
    }
  }
};
const request = (items: NativeItem[], name: string) => {
  const hit = find(items, name);
  if (hit?.type !== "request") throw new Error(`no request '${name}'`);
  return hit.request;
};
const v21 = (item: unknown[], extra: Record<string, unknown> = {}) => ({ info: { name: "t", schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json" }, item, ...extra });

describe("Postman collections from Newman's fixtures", () => {
  it("inherited-entities: collection variables, auth and scripts; folders; digest auth kept as a warning", () => {
    const { document, version, warnings, failures } = convertPostmanCollection(fixture("inherited-entities.postman_collection.json"));
    expect(NativeCollectionDocument.safeParse(document).success).toBe(true);
    expect(version).toBe("2.1");
    expect(failures).toEqual([]);
    expect(document.collection).toMatchObject({
      name: "Inherited Entities",
      auth: { type: "basic", basic: { username: "postman", password: "password" } },
      scripts: { preRequest: "pm.environment.set('collectionScriptURL', 'https://postman-echo.com/get?test=collection_script');" },
    });
    expect(document.collection.variables.map((v) => v.key)).toEqual(["collection-var", "collectionVariablesURL", "duplicate-var"]);
    expect(outline(document.items)).toEqual([
      { "Collection level stuff": ["Variables", "Auth", "Events"] },
      { "Folder level stuff": ["Auth", "Event"] },
      { "Request level stuff": ["Auth"] },
      "Auth override",
      "Environment override",
    ]);
    // A request given as a bare URL string; `event` given as one object instead of a list.
    const variables = find(document.items, "Collection level stuff");
    expect(variables?.type === "folder" && variables.items[0]).toMatchObject({ request: { method: "GET", url: "{{collectionVariablesURL}}", auth: { type: "inherit" } } });
    const folder = find(document.items, "Folder level stuff");
    expect(folder?.type === "folder" && folder.scripts.preRequest).toContain("folderScriptURL");
    expect(folder?.type === "folder" && folder.items[0].type === "request" && folder.items[0].request.scripts.test).toContain("folder level auth");
    expect(request(document.items, "Auth override").auth).toEqual({ type: "none" });
    expect(warnings).toEqual([
      { path: "item[1]", message: expect.stringContaining("digest auth is not supported") },
      { path: "item[2].item[0]", message: expect.stringContaining("digest auth is not supported") },
    ]);
  });

  it("multi-level-folders v2.0: nested folders, an empty folder, legacy test scripts", () => {
    const { document, version, failures } = convertPostmanCollection(fixture("multi-level-folders-v2.postman_collection.json"));
    expect(version).toBe("2.0");
    expect(failures).toEqual([]);
    expect(document.collection.description).toBe("A simple V2 collection to test out multi level folder flows");
    expect(outline(document.items)).toEqual([{ F1: ["F1.R1", "F1.R2", "F1.R3"] }, { F2: [{ "F2.F3": ["F2.F3.R1"] }, { F4: [] }, "F2.R1"] }, "R1"]);
    const r1 = request(document.items, "F1.R1");
    expect(r1.scripts.preRequest).toContain('postman.setEnvironmentVariable("count"');
    expect(r1.scripts.test).toBe('tests["Status code is 200"] = responseCode.code === 200;\ntests["Request executed in correct order"] = postman.getEnvironmentVariable("count") === 0;');
    expect(r1.body).toEqual({ mode: "none" }); // `body: {}`
  });

  it("echo-v2 (v2.0): auth parameters as objects, raw and form bodies, exec as one string; oauth1/digest warned", () => {
    const { document, version, warnings, failures } = convertPostmanCollection(fixture("echo-v2.postman_collection.json"));
    expect(version).toBe("2.0");
    expect(failures).toEqual([]);
    expect(NativeCollectionDocument.safeParse(document).success).toBe(true);
    expect(request(document.items, "Basic Auth")).toMatchObject({ auth: { type: "basic", basic: { username: "postman", password: "password" } }, headers: [{ key: "Authorization", value: "Basic cG9zdG1hbjpwYXNzd29yZA==", enabled: true }] });
    const post = request(document.items, "POST Request");
    expect(post).toMatchObject({ method: "POST", url: "https://postman-echo.com/post", body: { mode: "raw" }, headers: [{ key: "Content-Type", value: "text/plain" }] });
    expect(post.body.raw).toMatch(/^Duis posuere/);
    expect(post.scripts.test).toContain('tests["response has data"]');
    expect(request(document.items, "Basic Auth").body).toEqual({ mode: "none" }); // `formdata: []` on a GET sends nothing
    expect(request(document.items, "GET Request").body.formdata?.map((p) => p.key)).toEqual(["code", "grant_type", "redirect_uri", "client_id", "client_secret"]);
    const messages = warnings.map((w) => `${w.path}: ${w.message}`);
    expect(messages).toContain("item[0].item[1]: digest auth is not supported by the tester; the request is sent without it (set a header or a pre-request script instead)");
    expect(messages).toContain("item[1].item[1]: oauth1 auth is not supported by the tester; the request is sent without it (set a header or a pre-request script instead)");
    expect(messages.some((m) => /request descriptions are not kept/.test(m))).toBe(true);
    expect(messages.some((m) => /saved example responses? (is|are) not imported/.test(m))).toBe(true);
  });

  it("whatwg-url (v2.1): URL objects; the query list (with disabled entries) replaces the raw URL's query", () => {
    const { document, version } = convertPostmanCollection(fixture("whatwg-url.postman_collection.json"));
    expect(version).toBe("2.1");
    expect(document.collection.scripts.test).toContain("pm.test.skip");
    const disabled = request(document.items, "disabled query param");
    expect(disabled.url).toBe("https://postman-echo.com/get");
    expect(disabled.params).toEqual([expect.objectContaining({ key: "foo", enabled: false })]);
    const empty = request(document.items, "params with empty key or value");
    expect(empty.params.map((p) => [p.key, p.value])).toEqual([["get", ""], ["", "bar"], ["", ""], ["baz", ""], ["", ""]]); // {key: null} entries are left out
  });

  it("urlencoded bodies with v2.0 `enabled`, and the sample collection's string URLs", () => {
    const form = convertPostmanCollection(fixture("esc-formdata.postman_collection.json")).document;
    expect(request(form.items, "r1").body).toEqual({ mode: "urlencoded", urlencoded: [{ key: "{{msg1}}", value: "{{msg}}", enabled: true }, { key: "incollection", value: "hello\\world", enabled: true }] });
    const sample = convertPostmanCollection(fixture("sample-collection.json")).document;
    expect(request(sample.items, "A simple GET request").url).toBe("https://postman-echo.com/get?source=newman-sample-github-collection");
    expect(request(sample.items, "A simple POST request with JSON body").body.raw).toBe('{"text":"Duis posuere augue vel cursus pharetra. In luctus a ex nec pretium..."}');
  });

  it("hawk auth is a warning, not a silent drop", () => {
    const { warnings, document } = convertPostmanCollection(fixture("hawk-auth-test.postman_collection.json"));
    expect(warnings).toContainEqual({ path: "item[0]", message: expect.stringContaining("hawk auth is not supported") });
    expect(request(document.items, "test hawk auth success").auth).toEqual({ type: "none" });
  });
});

describe("Postman v2.1 shapes", () => {
  it.each([
    ["bearer", { type: "bearer", bearer: [{ key: "token", value: "{{tok}}", type: "string" }] }, { type: "bearer", bearer: { token: "{{tok}}" } }],
    ["basic as a list", { type: "basic", basic: [{ key: "password", value: "p" }, { key: "username", value: "u" }] }, { type: "basic", basic: { username: "u", password: "p" } }],
    ["apikey in query", { type: "apikey", apikey: [{ key: "key", value: "api_key" }, { key: "value", value: "{{k}}" }, { key: "in", value: "query" }] }, { type: "apikey", apikey: { key: "api_key", value: "{{k}}", in: "query" } }],
    ["apikey default header", { type: "apikey", apikey: [{ key: "key", value: "X-Key" }, { key: "value", value: "v" }] }, { type: "apikey", apikey: { key: "X-Key", value: "v", in: "header" } }],
    [
      "oauth2 client credentials",
      { type: "oauth2", oauth2: [{ key: "grant_type", value: "client_credentials" }, { key: "accessTokenUrl", value: "https://auth.test/token" }, { key: "clientId", value: "id" }, { key: "clientSecret", value: "s" }, { key: "scope", value: "read" }, { key: "client_authentication", value: "body" }] },
      { type: "oauth2", oauth2: { grantType: "client_credentials", accessTokenUrl: "https://auth.test/token", clientId: "id", clientSecret: "s", scope: "read", clientAuthentication: "body" } },
    ],
    ["oauth2 other grant with a saved token", { type: "oauth2", oauth2: [{ key: "grant_type", value: "authorization_code" }, { key: "accessToken", value: "abc" }] }, { type: "bearer", bearer: { token: "abc" } }],
    ["noauth", { type: "noauth" }, { type: "none" }],
    ["inherit", { type: "inherit" }, { type: "inherit" }],
  ])("request auth: %s", (_name, auth, expected) => {
    const { document } = convertPostmanCollection(v21([{ name: "r", request: { method: "GET", url: "http://x.test", auth } }]));
    expect(request(document.items, "r").auth).toEqual(expected);
  });

  it("bodies: raw with its language, graphql, formdata text and file parts, a file body (files warned)", () => {
    const { document, warnings } = convertPostmanCollection(
      v21([
        { name: "json", request: { method: "POST", url: "http://x.test", body: { mode: "raw", raw: '{"a":1}', options: { raw: { language: "json" } } } } },
        { name: "gql", request: { method: "POST", url: "http://x.test/graphql", body: { mode: "graphql", graphql: { query: "query { me { id } }", variables: '{"x": 1}' } } } },
        { name: "form", request: { method: "POST", url: "http://x.test", body: { mode: "formdata", formdata: [{ key: "a", value: "1", type: "text" }, { key: "off", value: "2", type: "text", disabled: true }, { key: "doc", type: "file", src: "/home/me/report.pdf" }] } } },
        { name: "file", request: { method: "PUT", url: "http://x.test", body: { mode: "file", file: { src: "C:\\data\\blob.bin" } } } },
      ]),
    );
    expect(request(document.items, "json").body).toEqual({ mode: "raw", raw: '{"a":1}', language: "json" });
    expect(request(document.items, "gql").body).toEqual({ mode: "graphql", graphql: { query: "query { me { id } }", variables: '{"x": 1}' } });
    expect(request(document.items, "form").body.formdata).toEqual([
      { key: "a", type: "text", value: "1", enabled: true },
      { key: "off", type: "text", value: "2", enabled: false },
      { key: "doc", type: "file", value: "", enabled: true, fileName: "report.pdf" },
    ]);
    expect(request(document.items, "file").body).toEqual({ mode: "binary", binary: { fileName: "blob.bin", contentBase64: "" } });
    expect(warnings).toEqual([
      { path: "item[2]", message: "form part 'doc': the file '/home/me/report.pdf' is not in the export; attach it to the request" },
      { path: "item[3]", message: "the body file 'C:\\data\\blob.bin' is not in the export; attach it to the request" },
    ]);
  });

  it("URL objects: built from parts, path variables filled in, disabled headers kept off", () => {
    const { document } = convertPostmanCollection(
      v21([
        {
          name: "parts",
          request: {
            method: "delete",
            header: [{ key: "X-On", value: "1" }, { key: "X-Off", value: "2", disabled: true }],
            url: { protocol: "https", host: ["api", "example", "test"], port: "8443", path: ["users", ":id"], query: [{ key: "force", value: "true" }], variable: [{ key: "id", value: "42" }] },
          },
        },
      ]),
    );
    const r = request(document.items, "parts");
    expect(r).toMatchObject({ method: "DELETE", url: "https://api.example.test:8443/users/42", params: [{ key: "force", value: "true", enabled: true }] });
    expect(r.headers).toEqual([{ key: "X-On", value: "1", enabled: true }, { key: "X-Off", value: "2", enabled: false }]);
  });

  it("secret and disabled collection variables; folder auth and descriptions; order warning", () => {
    const { document, warnings } = convertPostmanCollection(
      v21(
        [
          { name: "first", request: { url: "http://x.test/1" } },
          { name: "Folder", description: { content: "about it" }, auth: { type: "bearer", bearer: [{ key: "token", value: "f" }] }, item: [{ name: "in", request: "http://x.test/in" }] },
        ],
        { variable: [{ key: "password", value: "hunter2", type: "secret" }, { key: "off", value: "1", disabled: true }, { id: "legacy", value: 5 }] },
      ),
    );
    expect(document.collection.variables).toEqual([
      { key: "password", value: "hunter2", secret: true, enabled: true },
      { key: "off", value: "1", secret: false, enabled: false },
      { key: "legacy", value: "5", secret: false, enabled: true },
    ]);
    expect(document.items[1]).toMatchObject({ type: "folder", name: "Folder", description: "about it", auth: { type: "bearer", bearer: { token: "f" } } });
    expect(warnings).toEqual([{ path: "item", message: "requests placed before a folder here run after the folders in the tester" }]);
  });

  it("an item that does not convert is a failure naming its Postman path; the rest converts", () => {
    const { document, failures } = convertPostmanCollection(
      v21([
        { name: "ok", request: { url: "http://x.test" } },
        { name: "bad method", request: { url: "http://x.test", method: "GET POST" } },
        { name: "Deep", item: [{ name: "neither" }, { name: "x".repeat(300), request: { url: "http://x.test" } }] },
      ]),
    );
    expect(outline(document.items)).toEqual(["ok", { Deep: ["x".repeat(255)] }]);
    expect(failures).toEqual([
      { path: "item[1]", name: "bad method", type: "request", reason: "request.method: letters only" },
      { path: "item[2].item[0]", name: "neither", reason: "neither a request nor a folder (no `request`, no `item`)" },
    ]);
  });

  it.each([
    ["not an object", [1, 2], ""],
    ["no item list", { info: { name: "x" } }, "item"],
    ["a v1 collection", { id: "1", name: "old", requests: [], order: [] }, "requests"],
    ["another schema", { info: { name: "x", schema: "https://schema.getpostman.com/json/collection/v3.0.0/collection.json" }, item: [] }, "info.schema"],
  ])("400 naming the location: %s", (_name, input, field) => {
    try {
      convertPostmanCollection(input);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).details).toEqual([expect.objectContaining({ location: "body", field })]);
    }
  });
});

describe("Postman environments", () => {
  it("Newman's fixture: disabled values left out, the last duplicate kept, each with a warning", () => {
    const env = convertPostmanEnvironment(fixture("disabled-and-duplicates.postman_environment.json"));
    expect(env).toEqual({
      name: "disabled-and-duplicates",
      variables: { oneDisabled: "1", duplicate: "2" },
      secrets: [],
      warnings: [
        { path: "values[0]", message: "'justDisabled' is disabled; left out" },
        { path: "values[2]", message: "'oneDisabled' is disabled; left out" },
        { path: "values[4]", message: "'duplicate' appears more than once; the last one is kept" },
      ],
    });
    expect(convertPostmanEnvironment(fixture("inherited-entities.postman_environment.json")).variables).toEqual({ "env-var": "environment value", "duplicate-var": "correct" });
  });

  it("secret values become secret names; a collection is refused with a hint", () => {
    const env = convertPostmanEnvironment({ name: "Prod", values: [{ key: "token", value: "t0k", type: "secret", enabled: true }, { key: "host", value: "h", type: "default", enabled: true }] });
    expect(env).toMatchObject({ name: "Prod", variables: { token: "t0k", host: "h" }, secrets: ["token"] });
    expect(() => convertPostmanEnvironment(fixture("sample-collection.json"))).toThrow(/looks like a collection/);
  });
});
