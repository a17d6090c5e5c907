// SOAP helpers through their route handlers against a real node:http SOAP
// responder serving the library WSDL fixture (addresses rewritten to it):
// soap/operations from WSDL text and from its URL (operations, SOAPAction,
// version, a sample envelope), proxy/soap with a given envelope and with a WSDL
// operation and params (SOAP 1.1 and 1.2 headers as each version wants), a
// SOAP Fault answered as data, and the outbound policy on the endpoint.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as proxySoapRoute from "@/app/api/v1/proxy/soap/route";
import * as operationsRoute from "@/app/api/v1/api-tester/soap/operations/route";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "helpers-soap";
let cookie: string;
let base: string;
let wsdl: string;
const seen: { action?: string; contentType?: string; body: string }[] = [];

const ok11 = (isbn: string) =>
  `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetBookResponse xmlns="http://example.com/library"><GetBookResult id="1"><Isbn>${isbn}</Isbn><Title>Dune</Title></GetBookResult></GetBookResponse></soap:Body></soap:Envelope>`;
const fault11 = `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Book not found</faultstring><detail><BookNotFound xmlns="http://example.com/library"><Reason>unknown isbn</Reason></BookNotFound></detail></soap:Fault></soap:Body></soap:Envelope>`;
const fault12 = `<?xml version="1.0"?><env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body><env:Fault><env:Code><env:Value>env:Sender</env:Value></env:Code><env:Reason><env:Text xml:lang="en">Bad request</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>`;

const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/library.wsdl") return void res.writeHead(200, { "content-type": "text/xml" }).end(wsdl);
  const chunks: Buffer[] = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString();
    seen.push({ action: req.headers.soapaction as string | undefined, contentType: req.headers["content-type"], body });
    if (req.headers["content-type"]?.startsWith("application/soap+xml")) return void res.writeHead(400, { "content-type": "application/soap+xml" }).end(fault12);
    const isbn = /<(?:\w+:)?Isbn>([^<]*)</.exec(body)?.[1] ?? "";
    if (isbn === "missing") return void res.writeHead(500, { "content-type": "text/xml" }).end(fault11);
    res.writeHead(200, { "content-type": "text/xml" }).end(ok11(isbn));
  });
});

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  cookie = await sessionCookie(o.user.id);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  wsdl = readFileSync(path.join(import.meta.dirname, "../../../generators/__fixtures__/library.wsdl"), "utf8").replaceAll("http://example.com/services/library.asmx", `${base}/library.asmx`);
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const post = (route: typeof proxySoapRoute, url: string, body: Record<string, unknown>) => call(route.POST, url, { method: "POST", cookie, body: { namespace: NS, ...body } });

describe("POST /api/v1/api-tester/soap/operations", () => {
  it("lists services, ports and operations with SOAPAction, version and a sample envelope, from text and from a URL", async () => {
    for (const body of [{ wsdl }, { url: `${base}/library.wsdl` }]) {
      const res = await post(operationsRoute, "/api/v1/api-tester/soap/operations", body);
      expect(res.status).toBe(200);
      expect(res.body.services).toEqual([
        {
          name: "Library",
          ports: [
            { name: "LibrarySoap", soapVersion: "1.1", address: `${base}/library.asmx`, operations: ["GetBook", "SearchBooks", "GetFeaturedEbook", "ReturnBook"] },
            { name: "LibrarySoap12", soapVersion: "1.2", address: `${base}/library.asmx`, operations: ["GetBook", "SearchBooks", "GetFeaturedEbook", "ReturnBook"] },
          ],
        },
      ]);
      const getBook = res.body.operations.find((o: { id: string }) => o.id === "Library.LibrarySoap.GetBook");
      expect(getBook).toMatchObject({ name: "GetBook", soapVersion: "1.1", style: "document", action: "http://example.com/library/GetBook" });
      expect(getBook.sampleEnvelope).toContain("http://schemas.xmlsoap.org/soap/envelope/");
      expect(getBook.sampleEnvelope).toMatch(/<GetBook[ >].*<Isbn>/);
      expect(getBook.sampleEnvelope).not.toContain("$.fake");
      const v12 = res.body.operations.find((o: { id: string }) => o.id === "Library.LibrarySoap12.GetBook");
      expect(v12.sampleEnvelope).toContain("http://www.w3.org/2003/05/soap-envelope");
    }
  });

  it("answers 400 naming the field for a document that is not a WSDL, and for neither or both sources", async () => {
    const bad = await post(operationsRoute, "/api/v1/api-tester/soap/operations", { wsdl: "<html><body/></html>" });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe("wsdl");
    expect((await post(operationsRoute, "/api/v1/api-tester/soap/operations", {})).status).toBe(400);
    expect((await post(operationsRoute, "/api/v1/api-tester/soap/operations", { wsdl, url: `${base}/library.wsdl` })).status).toBe(400);
    expect((await post(operationsRoute, "/api/v1/api-tester/soap/operations", { url: "http://169.254.169.254/x.wsdl" })).status).toBe(400);
  });
});

describe("POST /api/v1/proxy/soap", () => {
  it("builds the envelope from a WSDL operation and params, sends SOAPAction, and parses the answer", async () => {
    seen.length = 0;
    const res = await post(proxySoapRoute, "/api/v1/proxy/soap", { wsdl, operation: "GetBook", params: { Isbn: "9780441013593" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 200, soapVersion: "1.1", request: { url: `${base}/library.asmx`, action: "http://example.com/library/GetBook" } });
    expect(res.body.fault).toBeUndefined();
    expect(res.body.parsed.GetBookResponse.GetBookResult).toMatchObject({ Isbn: "9780441013593", Title: "Dune" });
    expect(seen[0].action).toBe('"http://example.com/library/GetBook"');
    expect(seen[0].contentType).toMatch(/^text\/xml/);
    expect(seen[0].body).toContain("<Isbn>9780441013593</Isbn>");
  });

  it("answers a SOAP Fault as data (1.1 faultcode/faultstring/detail, 1.2 Code/Reason), with the 1.2 action in the content type", async () => {
    const envelope = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetBook xmlns="http://example.com/library"><Isbn>missing</Isbn></GetBook></soap:Body></soap:Envelope>`;
    const v11 = await post(proxySoapRoute, "/api/v1/proxy/soap", { url: `${base}/library.asmx`, action: "urn:get", envelope });
    expect(v11.status).toBe(200);
    expect(v11.body.status).toBe(500);
    expect(v11.body.fault).toMatchObject({ code: "soap:Client", string: "Book not found" });
    expect(v11.body.fault.detail.BookNotFound.Reason).toBe("unknown isbn");

    seen.length = 0;
    const v12 = await post(proxySoapRoute, "/api/v1/proxy/soap", { wsdl, operation: "GetBook", soapVersion: "1.2", params: { Isbn: "1" } });
    expect(v12.status).toBe(200);
    expect(v12.body.soapVersion).toBe("1.2");
    expect(v12.body.fault).toMatchObject({ code: "env:Sender", string: "Bad request" });
    expect(seen[0].contentType).toBe('application/soap+xml; charset=utf-8; action="http://example.com/library/GetBook"');
    expect(seen[0].body).toContain("http://www.w3.org/2003/05/soap-envelope");
  });

  it("refuses bad input and blocked endpoints with a 400 naming the field", async () => {
    const unknown = await post(proxySoapRoute, "/api/v1/proxy/soap", { wsdl, operation: "Nope" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].field).toBe("operation");
    expect((await post(proxySoapRoute, "/api/v1/proxy/soap", { envelope: "<x/>" })).status).toBe(400);
    const blocked = await post(proxySoapRoute, "/api/v1/proxy/soap", { url: "http://169.254.169.254/soap", envelope: "<x/>" });
    expect(blocked.status).toBe(400);
    expect(blocked.body.details[0].field).toBe("url");
  });
});
