// SoapUI project → collection on SoapUI's own sample projects (SOAP and REST tutorials).
import { describe, expect, it } from "vitest";
import { soapuiToCollection } from "./soapui";
import { importFixture, requestsOf } from "./test-helpers";

describe("soapuiToCollection", () => {
  it("maps the sample SOAP project: interface calls, test suites and cases, properties as variables", () => {
    const { document, warnings } = soapuiToCollection(importFixture("Sample-SOAP-Project-soapui-project.xml"));
    expect(document.collection.name).toBe("Sample SOAP Project Core");
    expect(document.collection.variables).toContainEqual(expect.objectContaining({ key: "Some Property", value: "with a value" }));
    expect(document.items.map((i) => i.name)).toEqual(["ServiceSoapBinding", "Simple TestSuite", "TestSuite fails if we don't get faults", "Expanded TestSuite"]);
    const requests = requestsOf(document.items);
    const login = requests.find((r) => r.name === "login rq")!;
    expect(login.folders).toEqual(["ServiceSoapBinding"]);
    expect(login.request).toMatchObject({ kind: "soap", method: "POST", url: "http://127.0.0.1:8088/mockServiceSoapBinding", soap: { action: "http://www.soapui.org/sample/login", version: "1.1" } });
    expect(login.request.body.raw).toContain("<sam:login>");
    // A test step takes its SOAPAction from the interface's operation.
    const step = requests.find((r) => r.folders.join("/") === "Simple TestSuite/Simple Search TestCase" && r.name === "Test Request - search")!;
    expect(step.request.soap?.action).toBe("http://www.soapui.org/sample/search");
    expect(requests.filter((r) => r.folders[0] === "Simple TestSuite").length).toBe(11);
    const said = warnings.map((w) => w.message).join("\n");
    expect(said).toMatch(/"transfer" test steps not imported/);
    expect(said).toMatch(/assertions not imported/);
  });

  it("maps the sample REST project: endpoint + resource path, method, parameters", () => {
    const { document } = soapuiToCollection(importFixture("Sample-REST-Project-soapui-project.xml"));
    const requests = requestsOf(document.items);
    const submit = requests.find((r) => r.name === "Submit Registration Form")!.request;
    expect(submit).toMatchObject({ kind: "http", method: "POST", url: "http://localhost:8080/accountcreation" });
    expect(submit.params).toEqual([expect.objectContaining({ key: "username", value: "john" }), expect.objectContaining({ key: "password", value: "w0j39av0d8s" })]);
    const step = requests.find((r) => r.name === "Submit Account Details")!;
    expect(step.folders).toEqual(["Test account creation", "accountcreation TestCase"]);
    expect(step.request.method).toBe("POST");
  });

  it("turns property expansions into variables and Basic credentials into auth", () => {
    const xml = `<?xml version="1.0"?>
<con:soapui-project name="P" xmlns:con="http://eviware.com/soapui/config" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <con:interface xsi:type="con:WsdlInterface" name="B" soapVersion="1_2">
    <con:operation name="Op" action="urn:op"><con:call name="c">
      <con:settings><con:setting id="com.eviware.soapui.impl.wsdl.WsdlRequest@request-headers">&lt;xml-fragment xmlns:con="http://eviware.com/soapui/config">&lt;con:entry key="X-Tenant" value="\${#Project#tenant}"/>&lt;/xml-fragment></con:setting></con:settings>
      <con:endpoint>\${#Project#host}/svc</con:endpoint><con:request><![CDATA[<e/>]]></con:request>
      <con:credentials><con:username>ann</con:username><con:password>pw</con:password><con:authType>Basic</con:authType></con:credentials>
    </con:call></con:operation>
  </con:interface>
  <con:properties><con:property><con:name>host</con:name><con:value>https://svc.example</con:value></con:property></con:properties>
</con:soapui-project>`;
    const { document } = soapuiToCollection(xml);
    const [call] = requestsOf(document.items);
    expect(call.request).toMatchObject({ url: "{{host}}/svc", soap: { action: "urn:op", version: "1.2" }, auth: { type: "basic", basic: { username: "ann", password: "pw" } } });
    expect(call.request.headers).toEqual([expect.objectContaining({ key: "X-Tenant", value: "{{tenant}}" })]);
    expect(document.collection.variables).toEqual([expect.objectContaining({ key: "host", value: "https://svc.example" })]);
  });

  it("refuses what is not a SoapUI project, with the line", () => {
    expect(() => soapuiToCollection("<project/>")).toThrow(/not a SoapUI project/);
    expect(() => soapuiToCollection('<con:soapui-project xmlns:con="http://eviware.com/soapui/config">\n<con:interface>\n</con:soapui-project>')).toThrow(expect.objectContaining({ location: expect.objectContaining({ line: expect.any(Number) }) }));
  });
});
