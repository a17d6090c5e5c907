// WSDL → collection on the library WSDL (SOAP 1.1 and 1.2 ports, document/literal).
import { describe, expect, it } from "vitest";
import { wsdlToCollection } from "./wsdl";
import { generatorFixture, requestsOf } from "./test-helpers";

describe("wsdlToCollection", () => {
  it("gives a SOAP request per operation and port, with a sample envelope of the port's version and its SOAPAction", () => {
    const { document } = wsdlToCollection(generatorFixture("library.wsdl"));
    expect(document.collection.name).toBe("Library");
    expect(document.items.map((i) => i.name)).toEqual(["Library · LibrarySoap (SOAP 1.1)", "Library · LibrarySoap12 (SOAP 1.2)"]);
    const requests = requestsOf(document.items);
    const get11 = requests.find((r) => r.name === "GetBook" && r.folders[0].includes("1.1"))!.request;
    const get12 = requests.find((r) => r.name === "GetBook" && r.folders[0].includes("1.2"))!.request;
    expect(get11).toMatchObject({ kind: "soap", method: "POST", soap: { action: "http://example.com/library/GetBook", version: "1.1" } });
    expect(get11.url).toMatch(/^\{\{baseUrl\}\}\//);
    expect(get11.body.raw).toContain('<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">');
    expect(get11.body.raw).toContain('<GetBook xmlns="http://example.com/library">');
    expect(get11.body.raw).toContain("<Isbn>");
    expect(get12.soap?.version).toBe("1.2");
    expect(get12.body.raw).toContain("http://www.w3.org/2003/05/soap-envelope");
    expect(document.collection.variables[0]).toMatchObject({ key: "baseUrl" });
    expect(document.collection.variables[0].value).toMatch(/^https?:\/\//);
  });

  it("refuses what is not a WSDL, with the line", () => {
    expect(() => wsdlToCollection("<a><b></a>")).toThrow(expect.objectContaining({ location: expect.objectContaining({ line: 1 }) }));
    expect(() => wsdlToCollection('<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "b">]><x/>')).toThrow(/DOCTYPE/);
  });
});
