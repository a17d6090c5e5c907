// The request builder: variables everywhere, every body mode, SOAP and
// GraphQL kinds, and the URL rules; each request is also sent to a real echo
// server, so what is asserted is what a server receives.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestDefinition, type RequestDefinitionInput } from "@/server/contracts/tester-request";
import { echoHandler, echoHeader, startServer, type Echo, type TestServer } from "@/server/testing/http-test-servers";
import { RequestBuildError } from "./build-error";
import { sendHttp } from "./http-client";
import { buildRequest, encodeQueryComponent, USER_AGENT } from "./request-builder";
import { emptyScopes, type VariableScopes } from "./scopes";

let echo: TestServer;
beforeAll(async () => {
  echo = await startServer(echoHandler);
});
afterAll(() => echo.close());

const scopes = (environment: Record<string, unknown> = {}): VariableScopes => ({ ...emptyScopes(), environment: { base: echo.url, ...environment } });

async function build(input: Partial<RequestDefinitionInput>, env: Record<string, unknown> = {}) {
  return buildRequest(RequestDefinition.parse({ url: "{{base}}/echo", ...input }), { scopes: scopes(env) });
}

/** Builds, sends to the echo server, and returns what it received. */
async function received(input: Partial<RequestDefinitionInput>, env: Record<string, unknown> = {}): Promise<Echo> {
  const res = await sendHttp(await build(input, env));
  expect(res.status).toBe(200);
  return JSON.parse(res.body) as Echo;
}

const header = (req: { headers: { key: string; value: string }[] }, name: string) => req.headers.find((h) => h.key.toLowerCase() === name.toLowerCase())?.value;

describe("URL and params", () => {
  it.each([
    ["scheme-less gets http://", "example.com/a", [], "http://example.com/a"],
    ["host and port without scheme", "localhost:3000/x", [], "http://localhost:3000/x"],
    ["https kept", "https://example.com", [], "https://example.com/"],
    ["params appended", "http://h/p", [{ key: "a", value: "1" }, { key: "b", value: "two words" }], "http://h/p?a=1&b=two%20words"],
    ["after an existing query", "http://h/p?x=0", [{ key: "a", value: "1" }], "http://h/p?x=0&a=1"],
    ["after a bare ?", "http://h/p?", [{ key: "a", value: "1" }], "http://h/p?a=1"],
    ["disabled params dropped", "http://h/p", [{ key: "a", value: "1", enabled: false }, { key: "b", value: "2" }], "http://h/p?b=2"],
    ["empty rows dropped", "http://h/p", [{ key: "", value: "" }], "http://h/p"],
    ["separators in values encoded", "http://h/p", [{ key: "q", value: "a&b=c#d+e" }], "http://h/p?q=a%26b=c%23d%2Be"],
    ["= in keys encoded", "http://h/p", [{ key: "a=b", value: "1" }], "http://h/p?a%3Db=1"],
    ["already-encoded values kept", "http://h/p", [{ key: "q", value: "a%20b%2Fc" }], "http://h/p?q=a%20b%2Fc"],
    ["a lone % encoded", "http://h/p", [{ key: "pct", value: "100%" }], "http://h/p?pct=100%25"],
    ["unicode encoded", "http://h/p", [{ key: "n", value: "zürich ✓" }], "http://h/p?n=z%C3%BCrich%20%E2%9C%93"],
    ["the fragment dropped, params before it", "http://h/p#frag", [{ key: "a", value: "1" }], "http://h/p?a=1"],
  ])("%s", async (_name, url, params, expected) => {
    expect((await build({ url, params })).url).toBe(expected);
  });

  it("substitutes variables in the URL and in params", async () => {
    const req = await build({ url: "{{scheme}}://{{host}}/users/{{id}}", params: [{ key: "{{k}}", value: "{{v}}" }] }, { scheme: "https", host: "api.test", id: 7, k: "page", v: "2" });
    expect(req.url).toBe("https://api.test/users/7?page=2");
    expect(req.unresolved).toEqual([]);
  });

  it("params as an object map", async () => {
    expect((await build({ url: "http://h/", params: { a: "1", b: "{{x}}" } as never }, { x: "y" })).url).toBe("http://h/?a=1&b=y");
  });

  it("leaves an unresolvable URL as written and lists the names", async () => {
    const req = await buildRequest(RequestDefinition.parse({ url: "{{baseUrl}}/x", headers: [{ key: "X", value: "{{token}}" }] }), { scopes: emptyScopes() });
    expect(req.url).toBe("http://{{baseUrl}}/x");
    expect(req.unresolved).toEqual(["token", "baseUrl"]);
  });

  it.each([
    ["plain", "abc-._~", "abc-._~"],
    ["space", "a b", "a%20b"],
    ["plus", "a+b", "a%2Bb"],
    ["slash and colon kept", "a/b:c", "a/b:c"],
  ])("encodeQueryComponent %s", (_n, input, out) => {
    expect(encodeQueryComponent(input, false)).toBe(out);
  });
});

describe("headers", () => {
  it("substitutes names and values, drops disabled ones and adds the defaults", async () => {
    const e = await received(
      {
        headers: [
          { key: "X-{{name}}", value: "v={{value}}" },
          { key: "X-Off", value: "no", enabled: false },
          { key: "{{empty}}", value: "dropped: its name is empty" },
        ],
      },
      { name: "Trace", value: "42", empty: "" },
    );
    expect(echoHeader(e, "x-trace")).toBe("v=42");
    expect(echoHeader(e, "x-off")).toBeUndefined();
    expect(echoHeader(e, "user-agent")).toBe(USER_AGENT);
    expect(echoHeader(e, "accept")).toBe("*/*");
    expect(echoHeader(e, "accept-encoding")).toBe("gzip, deflate, br");
  });

  it("a user's User-Agent and Accept win", async () => {
    const e = await received({ headers: [{ key: "user-agent", value: "mine" }, { key: "Accept", value: "application/json" }] });
    expect(echoHeader(e, "user-agent")).toBe("mine");
    expect(e.headers.filter(([k]) => k.toLowerCase() === "accept")).toEqual([["Accept", "application/json"]]);
  });
});

describe("body modes", () => {
  it.each([
    ["json", "application/json"],
    ["xml", "application/xml"],
    ["text", "text/plain"],
    ["html", "text/html"],
    ["javascript", "application/javascript"],
  ] as const)("raw %s sets %s", async (language, type) => {
    const e = await received({ method: "POST", body: { mode: "raw", raw: '{"id": "{{id}}"}', language } }, { id: "u1" });
    expect(e.body).toBe('{"id": "u1"}');
    expect(echoHeader(e, "content-type")).toBe(type);
    expect(echoHeader(e, "content-length")).toBe(String(Buffer.byteLength('{"id": "u1"}')));
  });

  it("raw without a language is text/plain; a user's Content-Type wins", async () => {
    expect(echoHeader(await received({ method: "POST", body: { mode: "raw", raw: "x" } }), "content-type")).toBe("text/plain");
    const e = await received({ method: "POST", headers: [{ key: "content-type", value: "application/vnd.api+json" }], body: { mode: "raw", raw: "{}", language: "json" } });
    expect(e.headers.filter(([k]) => k.toLowerCase() === "content-type")).toEqual([["content-type", "application/vnd.api+json"]]);
  });

  it("an empty raw body sends nothing", async () => {
    const req = await build({ method: "POST", body: { mode: "raw", raw: "", language: "json" } });
    expect(req.body).toBeUndefined();
    expect(header(req, "content-type")).toBeUndefined();
    expect(req.bodyPreview).toEqual({});
  });

  it("urlencoded", async () => {
    const e = await received({
      method: "POST",
      body: {
        mode: "urlencoded",
        urlencoded: [
          { key: "user", value: "{{user}}" },
          { key: "note", value: "a b&c=d" },
          { key: "off", value: "x", enabled: false },
        ],
      },
    }, { user: "ann" });
    expect(echoHeader(e, "content-type")).toBe("application/x-www-form-urlencoded");
    expect(e.body).toBe("user=ann&note=a+b%26c%3Dd");
    expect(Object.fromEntries(new URLSearchParams(e.body))).toEqual({ user: "ann", note: "a b&c=d" });
  });

  it("formdata with text and file parts, parsed back by a multipart parser", async () => {
    const file = Buffer.from([0, 1, 2, 250, 255]);
    const req = await build({
      method: "POST",
      body: {
        mode: "formdata",
        formdata: [
          { key: "name", value: "{{who}}" },
          { key: "quote\"d", value: "line1\r\nline2" },
          { key: "upload", type: "file", fileName: "{{file}}.bin", contentType: "application/x-thing", contentBase64: file.toString("base64") },
          { key: "off", value: "x", enabled: false },
        ],
      },
    }, { who: "Zoë", file: "data" });
    expect(req.bodyPreview.bodyEncoding).toBe("base64");
    expect(Buffer.from(req.bodyPreview.body!, "base64").equals(req.body!)).toBe(true);
    const contentType = header(req, "content-type")!;
    expect(contentType).toMatch(/^multipart\/form-data; boundary=-{26}\d{24}$/);

    const res = await sendHttp(req);
    const e = JSON.parse(res.body) as Echo;
    const form = await new Request("http://x/", { method: "POST", headers: { "content-type": echoHeader(e, "content-type")! }, body: Buffer.from(e.bodyBase64, "base64") }).formData();
    expect(form.get("name")).toBe("Zoë");
    expect(form.get('quote"d')).toBe("line1\r\nline2"); // escaped as %22 on the wire, as browsers do
    expect(form.has("off")).toBe(false);
    const upload = form.get("upload") as File;
    expect(upload.name).toBe("data.bin");
    expect(upload.type).toBe("application/x-thing");
    expect(Buffer.from(await upload.arrayBuffer()).equals(file)).toBe(true);
  });

  it("a hand-written multipart Content-Type gets the boundary", async () => {
    const req = await build({ method: "POST", headers: [{ key: "Content-Type", value: "multipart/form-data" }], body: { mode: "formdata", formdata: [{ key: "a", value: "1" }] } });
    const types = req.headers.filter((h) => h.key.toLowerCase() === "content-type");
    expect(types).toHaveLength(1);
    expect(types[0].value).toMatch(/^multipart\/form-data; boundary=-+\d{24}$/);
  });

  it("binary, with the file's content type or octet-stream", async () => {
    const bytes = Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00]);
    const e = await received({ method: "PUT", body: { mode: "binary", binary: { fileName: "x.png", contentType: "image/png", contentBase64: bytes.toString("base64") } } });
    expect(echoHeader(e, "content-type")).toBe("image/png");
    expect(Buffer.from(e.bodyBase64, "base64").equals(bytes)).toBe(true);
    const req = await build({ method: "PUT", body: { mode: "binary", binary: { contentBase64: bytes.toString("base64") } } });
    expect(header(req, "content-type")).toBe("application/octet-stream");
    expect(req.bodyPreview).toEqual({ body: bytes.toString("base64"), bodyEncoding: "base64" });
  });

  it.each([
    ["variables as JSON text with a variable", '{"id": "{{id}}", "n": 2}', { id: "u1", n: 2 }],
    ["variables as an object", { id: "{{id}}", nested: { list: ["{{id}}"] } }, { id: "u1", nested: { list: ["u1"] } }],
    ["no variables", undefined, undefined],
    ["blank variables text", "  ", undefined],
  ])("graphql POST: %s", async (_name, variables, expected) => {
    const e = await received({ method: "POST", body: { mode: "graphql", graphql: { query: "query Q($id: ID!) { user(id: $id) { name } }", variables: variables as never, operationName: "Q" } } }, { id: "u1" });
    expect(echoHeader(e, "content-type")).toBe("application/json");
    const payload = JSON.parse(e.body);
    expect(payload).toEqual({ query: "query Q($id: ID!) { user(id: $id) { name } }", ...(expected ? { variables: expected } : {}), operationName: "Q" });
  });

  it("graphql kind is always a POST", async () => {
    const e = await received({ kind: "graphql", method: "GET", body: { mode: "graphql", graphql: { query: "{ ping }" } } });
    expect(e.method).toBe("POST");
    expect(JSON.parse(e.body)).toEqual({ query: "{ ping }" });
  });

  it("a GraphQL body on an http GET goes in the query string", async () => {
    const e = await received({ method: "GET", body: { mode: "graphql", graphql: { query: "{ user(id: 1) { name } }", variables: '{"a":1}', operationName: "Op" } } });
    const q = new URL(e.url, "http://x").searchParams;
    expect(e.body).toBe("");
    expect(q.get("query")).toBe("{ user(id: 1) { name } }");
    expect(q.get("variables")).toBe('{"a":1}');
    expect(q.get("operationName")).toBe("Op");
  });

  it("GraphQL variables that are not JSON are a clear error", async () => {
    const err = await build({ method: "POST", body: { mode: "graphql", graphql: { query: "{ a }", variables: "{id: 1}" } } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestBuildError);
    expect(err).toMatchObject({ code: "invalid_body" });
    expect((err as Error).message).toMatch(/GraphQL variables are not valid JSON/);
  });
});

describe("SOAP", () => {
  const envelope = '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Get><id>{{id}}</id></Get></soap:Body></soap:Envelope>';

  it("1.1: text/xml and a quoted SOAPAction, always POST", async () => {
    const e = await received({ kind: "soap", method: "GET", soap: { action: "urn:{{op}}", version: "1.1" }, body: { mode: "raw", raw: envelope } }, { id: "9", op: "Get" });
    expect(e.method).toBe("POST");
    expect(echoHeader(e, "content-type")).toBe("text/xml; charset=utf-8");
    expect(echoHeader(e, "soapaction")).toBe('"urn:Get"');
    expect(e.body).toContain("<id>9</id>");
  });

  it("1.2: the action goes in the Content-Type", async () => {
    const e = await received({ kind: "soap", soap: { action: "urn:Get", version: "1.2" }, body: { mode: "raw", raw: envelope } }, { id: "9" });
    expect(echoHeader(e, "content-type")).toBe('application/soap+xml; charset=utf-8; action="urn:Get"');
    expect(echoHeader(e, "soapaction")).toBeUndefined();
  });

  it("without an action: an empty SOAPAction (1.1), no action parameter (1.2)", async () => {
    expect(header(await build({ kind: "soap", body: { mode: "raw", raw: envelope } }), "soapaction")).toBe('""');
    expect(header(await build({ kind: "soap", soap: { version: "1.2" }, body: { mode: "raw", raw: envelope } }), "content-type")).toBe("application/soap+xml; charset=utf-8");
  });

  it("a user's Content-Type and SOAPAction win", async () => {
    const req = await build({ kind: "soap", soap: { action: "urn:A" }, headers: [{ key: "Content-Type", value: "text/xml" }, { key: "SOAPAction", value: "urn:B" }], body: { mode: "raw", raw: envelope } });
    expect(req.headers.filter((h) => /^(content-type|soapaction)$/i.test(h.key))).toEqual([
      { key: "Content-Type", value: "text/xml" },
      { key: "SOAPAction", value: "urn:B" },
    ]);
  });
});

describe("the prepared request", () => {
  it("keeps the settings and shows a text body as text", async () => {
    const req = await build({ method: "post", settings: { timeoutMs: 1234, followRedirects: false }, body: { mode: "raw", raw: "hi" } });
    expect(req.method).toBe("POST");
    expect(req.settings).toEqual({ timeoutMs: 1234, followRedirects: false, maxRedirects: 10, verifyTls: true });
    expect(req.bodyPreview).toEqual({ body: "hi", bodyEncoding: "utf8" });
  });

  it("lists each unresolved name once, from every part of the request", async () => {
    const req = await build({
      url: "{{base}}/{{a}}",
      params: [{ key: "p", value: "{{b}}" }],
      headers: [{ key: "X", value: "{{a}}{{c}}" }],
      body: { mode: "raw", raw: "{{d}}" },
      auth: { type: "bearer", bearer: { token: "{{e}}" } },
    });
    expect(req.unresolved.sort()).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("dynamic variables draw a new value in each place", async () => {
    const req = await build({ url: "{{base}}/{{$guid}}", headers: [{ key: "X-Id", value: "{{$guid}}" }] });
    expect(req.url.split("/").pop()).not.toBe(header(req, "x-id"));
  });
});
