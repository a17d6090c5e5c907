import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { GeneratorInputError } from "./input-error";
import { soapToMocks } from "./soap";

const LIBRARY = readFileSync(path.join(__dirname, "__fixtures__", "library.wsdl"), "utf8");
const payload = (m: { mock: unknown }) => (m.mock as { response: { payload: Record<string, any> } }).response.payload;

/** An RPC/encoded service in the older style: unqualified schema, parts by type, the wrapper's namespace from soap:body. */
const RPC = `<?xml version="1.0"?>
<definitions name="Calc" targetNamespace="urn:calc" xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="urn:calc" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <types>
    <xsd:schema targetNamespace="urn:calc">
      <xsd:complexType name="Sum">
        <xsd:sequence><xsd:element name="value" type="xsd:int"/><xsd:element name="at" type="xsd:dateTime"/></xsd:sequence>
        <xsd:attribute name="unit" type="xsd:string" fixed="none"/>
      </xsd:complexType>
    </xsd:schema>
  </types>
  <message name="AddIn"><part name="a" type="xsd:int"/><part name="b" type="xsd:int"/></message>
  <message name="AddOut"><part name="sum" type="tns:Sum"/></message>
  <portType name="CalcPort"><operation name="add"><input message="tns:AddIn"/><output message="tns:AddOut"/></operation></portType>
  <binding name="CalcBinding" type="tns:CalcPort">
    <soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="add">
      <soap:operation soapAction=""/>
      <input><soap:body use="encoded" namespace="urn:calc" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></input>
      <output><soap:body use="encoded" namespace="urn:calc" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></output>
    </operation>
  </binding>
  <service name="Calculator"><port name="CalcPort" binding="tns:CalcBinding"><soap:address location="http://localhost:8080/calc"/></port></service>
</definitions>`;

describe("soapToMocks", () => {
  it("one mock per operation shared by the SOAP 1.1 and 1.2 ports, plus one per fault; each a valid mock", async () => {
    const { mocks, warnings } = await soapToMocks(LIBRARY);
    expect(warnings).toEqual([]);
    expect(mocks.map((m) => [m.mock.id, m.summary])).toEqual([
      ["library-getbook", "Library.GetBook (SOAP 1.1, 1.2) → GetBookResponse, default"],
      ["library-getbook-fault-booknotfound", "Library.GetBook (SOAP 1.1, 1.2) → fault BookNotFound (Prefer: fault=BookNotFound)"],
      ["library-searchbooks", "Library.SearchBooks (SOAP 1.1, 1.2) → SearchBooksResponse, default"],
      ["library-getfeaturedebook", "Library.GetFeaturedEbook (SOAP 1.1, 1.2) → GetFeaturedEbookResponse, default"],
      ["library-returnbook", "Library.ReturnBook (SOAP 1.1, 1.2) → 202, no body (one-way), default"],
    ]);
    for (const m of mocks) expect(MockInput.safeParse(m.mock).success, m.mock.id).toBe(true);
    expect(mocks[0].mock.soap).toEqual({ service: "Library", method: "GetBook", action: "http://example.com/library/GetBook", path: "/services/library.asmx" });
    expect(mocks[4].mock.response).toEqual({ statusCode: 202 });
  });

  it("answers a sample of the output element built from the XSD", async () => {
    const { mocks } = await soapToMocks(LIBRARY);
    const book = payload(mocks[0]).GetBookResponse;
    expect(book["@xmlns"]).toBe("http://example.com/library");
    expect(book.GetBookResult).toEqual({
      "@id": "$.fake.UUID", // a guid-pattern simple type
      Isbn: "Isbnxxxxxxxxx", // length 13: pinned, so plain
      Title: "Title",
      Format: "Hardcover", // the first enumeration value
      Price: "$.fake.Float",
      PublishedAt: "$.fake.RFC3339",
      Authors: { Author: { Name: "Name", Email: "$.fake.Email" } }, // the recursive optional Mentor is left out
      InStock: "$.fake.Int", // the choice's first branch
      Notes: "Notes",
    });
    // An extension has its base's content, then its own.
    expect(Object.keys(payload(mocks[3]).GetFeaturedEbookResponse.GetFeaturedEbookResult).at(-1)).toBe("DownloadUrl");
    expect(payload(mocks[2]).SearchBooksResponse).toMatchObject({ SearchBooksResult: { Book: { Format: "Hardcover" } }, Total: "$.fake.Int" });
  });

  it("a fault is chosen with Prefer: fault=<name> and answers the fault element as its detail", async () => {
    const fault = (await soapToMocks(LIBRARY)).mocks[1].mock;
    expect(fault).toMatchObject({
      priority: 1,
      soap: { method: "GetBook", header: [{ path: "Prefer", assertAction: "matches", value: "(^|[\\s,;])fault=BookNotFound($|[\\s,;])" }] },
      response: { soapFault: { faultCode: "Server", faultString: "BookNotFound", detail: { BookNotFound: { "@xmlns": "http://example.com/library", Isbn: "Isbnxxxxxxxxx", Reason: "Reason" } } } },
    });
  });

  it("RPC style: the operation is the Body element, the answer an <op>Response wrapper in soap:body's namespace holding the parts", async () => {
    const { mocks, warnings } = await soapToMocks(RPC, { pathPrefix: "/legacy", tags: ["calc"] });
    expect(mocks).toHaveLength(1);
    expect(mocks[0].mock).toMatchObject({ id: "calc-calculator-add", pathPrefix: "/legacy", tags: ["calc"], soap: { service: "Calculator", method: "add", path: "/calc" } });
    expect(mocks[0].mock.soap).not.toHaveProperty("action");
    expect(payload(mocks[0])).toEqual({ "ns:addResponse": { "@xmlns:ns": "urn:calc", sum: { "@unit": "none", value: "$.fake.Int", at: "$.fake.RFC3339" } } });
    expect(warnings).toEqual([{ pointer: "/definitions/binding[@name='CalcBinding']/operation[@name='add']", message: expect.stringMatching(/use="encoded"/) }]);
  });

  it("ids are stable and take idPrefix", async () => {
    const a = await soapToMocks(LIBRARY, { idPrefix: "books" });
    expect(a.mocks.map((m) => m.mock.id)).toEqual((await soapToMocks(LIBRARY, { idPrefix: "books" })).mocks.map((m) => m.mock.id));
    expect(a.mocks[0].mock.id).toBe("books-library-getbook");
  });

  it("what it cannot read from the document is a warning, not a failure", async () => {
    const doc = RPC.replace('<xsd:schema targetNamespace="urn:calc">', '<xsd:schema targetNamespace="urn:calc"><xsd:include schemaLocation="http://169.254.169.254/types.xsd"/>')
      .replace('type="tns:Sum"', 'type="tns:Elsewhere"')
      .replace("</definitions>", '<binding name="Http" type="tns:CalcPort"><http:binding xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" verb="GET"/></binding><service name="Web"><port name="WebPort" binding="tns:Http"/></service></definitions>');
    const { mocks, warnings } = await soapToMocks(doc);
    expect(mocks).toHaveLength(1);
    expect(payload(mocks[0])).toEqual({ "ns:addResponse": { "@xmlns:ns": "urn:calc", sum: "" } });
    expect(warnings.map((w) => w.message)).toEqual([
      "xsd:include of http://169.254.169.254/types.xsd is not read: its types answer empty elements",
      "not a SOAP port (an HTTP or other binding): skipped",
      expect.stringMatching(/use="encoded"/),
      "{urn:calc}Elsewhere is not defined in this document: its elements answer empty",
    ]);
  });

  it.each([
    ["<wsdl:definitions xmlns:wsdl='http://schemas.xmlsoap.org/wsdl/'>\n  <wsdl:types>\n</wsdl:definitions>", /invalid XML/, { line: 3, column: 1 }],
    ['<?xml version="1.0"?>\n<!DOCTYPE d [<!ENTITY x "y">]><d/>', /document type declaration/, { line: 2, column: 1 }],
    ['<description xmlns="http://www.w3.org/ns/wsdl"/>', /WSDL 2.0 is not supported/, { line: 1, column: 1 }],
    ["<html><body/></html>", /not a WSDL 1.1 document: the root element is <html>/, { line: 1 }],
    [RPC.replace('binding="tns:CalcBinding"', 'binding="tns:Nope"'), /the binding "tns:Nope" that <port name="CalcPort"> names is not defined/, { line: 23, column: 30 }],
    [RPC.replace('type="tns:Sum"', 'type="zz:Sum"'), /prefix of "zz:Sum" is not declared/, { line: 13, column: 26 }],
    ["<x:definitions/>", /prefix "x" of <x:definitions> is not declared/, {}],
    [{ definitions: {} }, /a WSDL is XML/, {}],
    ["   ", /empty/, {}],
  ])("a document it cannot read is a GeneratorInputError with where: %#", async (doc, message, location) => {
    const err = await soapToMocks(doc).catch((e) => e);
    expect(err).toBeInstanceOf(GeneratorInputError);
    expect(err.message).toMatch(message);
    expect(err.location).toMatchObject(location);
  });
});
