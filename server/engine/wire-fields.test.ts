// Engine behaviour of the clients' wire fields: oneOf.offset, http.routePattern,
// response.decode, and the compiled SOAP fault envelopes.
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { buildNamespace, handle } from "./engine";
import { compileSoapFault } from "./protocols/soap-fault";
import { memoryDeps } from "./testing";
import type { EngineRequest } from "./types";

let seq = 0;
function mock(input: Record<string, unknown>): { mock: MockDefinition; sequence: number; createdAt: number } {
  const parsed = MockInput.parse({ id: `w${seq}`, ...input });
  return { mock: { ...parsed, id: parsed.id!, namespace: "sandbox" }, sequence: seq++, createdAt: Date.UTC(2026, 0, 1) };
}
const req = (method: string, path: string): EngineRequest => ({ namespace: "sandbox", method, path, headers: {}, query: {}, body: undefined });

async function bodyOf(ns: ReturnType<typeof buildNamespace>, method: string, path: string) {
  const r = await handle(ns, req(method, path), memoryDeps());
  return r.matched ? r.response.body : "(no match)";
}

describe("oneOf.offset", () => {
  it("starts the order rotation at that index, taken modulo the count; random ignores it", async () => {
    const responses = [{ payload: 0 }, { payload: 1 }, { payload: 2 }];
    const ns = buildNamespace("sandbox", [
      mock({ http: { route: "/two" }, oneOf: { order: "order", offset: 2, responses } }),
      mock({ http: { route: "/wrap" }, oneOf: { offset: 4, responses } }),
      mock({ http: { route: "/none" }, oneOf: { responses } }),
    ]);
    const served = async (path: string, n: number) => {
      const out: unknown[] = [];
      for (let i = 0; i < n; i++) out.push(await bodyOf(ns, "GET", path));
      return out;
    };
    expect(await served("/two", 4)).toEqual([2, 0, 1, 2]);
    expect(await served("/wrap", 3)).toEqual([1, 2, 0]);
    expect(await served("/none", 2)).toEqual([0, 1]);
  });
});

describe("http.routePattern", () => {
  it("matches the whole path below pathPrefix (RE2, anchored); with route both must fit; literal routes of equal priority win", async () => {
    const ns = buildNamespace("sandbox", [
      mock({ id: "re", http: { routePattern: "/users/[0-9]+", httpMethod: "GET" }, response: { payload: "regex" } }),
      mock({ id: "both", http: { route: "/orders/*", routePattern: "/orders/[a-z]{3}-\\d+" }, response: { payload: "both" } }),
      mock({ id: "prefixed", pathPrefix: "/api", http: { routePattern: "/v[12]/ping" }, response: { payload: "prefixed" } }),
      mock({ id: "literal", http: { route: "/users/42" }, response: { payload: "literal" } }),
    ]);
    expect(await bodyOf(ns, "GET", "/users/7")).toBe("regex");
    expect(await bodyOf(ns, "GET", "/users/42")).toBe("literal");
    expect(await bodyOf(ns, "GET", "/users/7x")).toBe("(no match)");
    expect(await bodyOf(ns, "GET", "/x/users/7")).toBe("(no match)");
    expect(await bodyOf(ns, "POST", "/users/7")).toBe("(no match)");
    expect(await bodyOf(ns, "GET", "/orders/abc-12")).toBe("both");
    expect(await bodyOf(ns, "GET", "/orders/abcd-12")).toBe("(no match)");
    expect(await bodyOf(ns, "GET", "/api/v2/ping")).toBe("prefixed");
    expect(await bodyOf(ns, "GET", "/v2/ping")).toBe("(no match)");
  });

  it("a near miss names the pattern", async () => {
    const ns = buildNamespace("sandbox", [mock({ id: "re2", http: { routePattern: "/items/[0-9]+" } })]);
    const r = await handle(ns, req("GET", "/items/abc"), memoryDeps());
    expect(r.matched).toBe(false);
    if (!r.matched) expect(r.nearest[0]).toMatchObject({ id: "re2", reasons: [{ kind: "route", message: expect.stringContaining("/items/[0-9]+") }] });
  });

  it("a ReDoS-shaped pattern is harmless: RE2 matches in linear time", async () => {
    const ns = buildNamespace("sandbox", [mock({ http: { routePattern: "/(a+)+$" }, response: { payload: "never" } })]);
    expect(await bodyOf(ns, "GET", `/${"a".repeat(5000)}!`)).toBe("(no match)");
  });
});

describe("response.decode", () => {
  it("HTTP: the body stays the base64 text (for the log) and the wire carries the decoded bytes, octet-stream unless the mock says otherwise", async () => {
    const bytes = Buffer.from([0, 255, 1, 128, 10, 13]);
    const ns = buildNamespace("sandbox", [
      mock({ http: { route: "/bin" }, response: { decode: "base64", payload: bytes.toString("base64") } }),
      mock({ http: { route: "/png" }, response: { decode: "base64", payload: bytes.toString("base64"), headers: { "Content-Type": "image/png" } } }),
    ]);
    const r = await handle(ns, req("GET", "/bin"), memoryDeps());
    if (!r.matched) throw new Error("no match");
    expect(r.response.wire?.of).toBe(r.response.body);
    expect(r.response.wire?.bytes.equals(bytes)).toBe(true);
    expect(r.response.headers["Content-Type"]).toEqual(["application/octet-stream"]);
    const png = await handle(ns, req("GET", "/png"), memoryDeps());
    expect(png.matched && png.response.headers).toEqual({ "Content-Type": ["image/png"] });
  });
});

describe("SOAP fault envelopes", () => {
  const xml = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, attributeNamePrefix: "@" });

  it("maps the standard codes between versions and puts a custom code in a 1.2 Subcode", () => {
    const std = compileSoapFault({ faultCode: "Client", faultString: "bad <id>", faultActor: "urn:actor", detail: "<e:code xmlns:e=\"urn:e\">42</e:code>", httpStatus: 400 });
    expect(std.status).toBe(400);
    const f11 = xml.parse(std.envelopes["1.1"]).Envelope.Body.Fault;
    expect(f11).toMatchObject({ faultcode: "env:Client", faultstring: "bad <id>", faultactor: "urn:actor", detail: { code: 42 } });
    const f12 = xml.parse(std.envelopes["1.2"]).Envelope.Body.Fault;
    expect(f12).toMatchObject({ Code: { Value: "env:Sender" }, Reason: { Text: { "#text": "bad <id>" } }, Role: "urn:actor", Detail: { code: 42 } });

    const custom = compileSoapFault({ faultCode: "tns:QuotaExceeded", detail: "plain & simple" });
    expect(custom.status).toBe(500);
    expect(xml.parse(custom.envelopes["1.1"]).Envelope.Body.Fault).toMatchObject({ faultcode: "tns:QuotaExceeded", faultstring: "Fault", detail: "plain & simple" });
    expect(xml.parse(custom.envelopes["1.2"]).Envelope.Body.Fault.Code).toEqual({ Value: "env:Receiver", Subcode: { Value: "tns:QuotaExceeded" } });
  });
});
