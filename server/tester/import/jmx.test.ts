// JMeter plan → collections on JMeter's own templates (web service and advanced web plans) and a two-thread-group plan.
import { describe, expect, it } from "vitest";
import { jmeterVariables, jmxToCollections } from "./jmx";
import { importFixture, requestsOf } from "./test-helpers";

const sampler = (name: string, path: string, extra = "") => `
      <HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="${name}" enabled="true">
        <elementProp name="HTTPsampler.Arguments" elementType="Arguments"><collectionProp name="Arguments.arguments">
          <elementProp name="q" elementType="HTTPArgument"><stringProp name="Argument.name">q</stringProp><stringProp name="Argument.value">\${term}</stringProp></elementProp>
        </collectionProp></elementProp>
        <stringProp name="HTTPSampler.domain">\${host}</stringProp><stringProp name="HTTPSampler.port">8443</stringProp>
        <stringProp name="HTTPSampler.protocol">https</stringProp><stringProp name="HTTPSampler.path">${path}</stringProp>
        <stringProp name="HTTPSampler.method">GET</stringProp>${extra}
      </HTTPSamplerProxy>`;

const TWO_GROUPS = `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0">
  <hashTree>
    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="Shop" enabled="true">
      <elementProp name="TestPlan.user_defined_variables" elementType="Arguments"><collectionProp name="Arguments.arguments">
        <elementProp name="host" elementType="Argument"><stringProp name="Argument.name">host</stringProp><stringProp name="Argument.value">\${__P(host,shop.example)}</stringProp></elementProp>
      </collectionProp></elementProp>
    </TestPlan>
    <hashTree>
      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="Browse" enabled="true"/>
      <hashTree>
        <TransactionController guiclass="TransactionControllerGui" testclass="TransactionController" testname="Search" enabled="true"/>
        <hashTree>${sampler("Find", "/search")}<hashTree/></hashTree>
        <ConstantTimer guiclass="ConstantTimerGui" testclass="ConstantTimer" testname="Wait" enabled="true"/><hashTree/>
      </hashTree>
      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="Buy" enabled="true"/>
      <hashTree>${sampler("Cart", "/cart")}<hashTree/>${sampler("Off", "/off").replace('enabled="true"', 'enabled="false"')}<hashTree/></hashTree>
      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="Idle" enabled="false"/><hashTree/>
    </hashTree>
  </hashTree>
</jmeterTestPlan>`;

describe("jmxToCollections", () => {
  it("maps JMeter's web service template: variables, HTTP Request Defaults, raw body, headers and the assertion", () => {
    const { collections } = jmxToCollections(importFixture("build-webservice-test-plan.jmx"));
    expect(collections).toHaveLength(1);
    const { document } = collections[0];
    expect(document.collection.variables).toEqual([expect.objectContaining({ key: "host", value: "wsf.cdyne.com" })]);
    const [soap] = requestsOf(document.items);
    expect(soap.name).toBe("Soap Request");
    expect(soap.request).toMatchObject({ kind: "http", method: "POST", url: "http://{{host}}/WeatherWS/Weather.asmx", body: { mode: "raw", language: "xml" } });
    expect(soap.request.body.raw).toContain("<GetCityForecastByZIP");
    expect(soap.request.body.raw).not.toContain("&#xd;");
    expect(soap.request.headers).toContainEqual(expect.objectContaining({ key: "SOAPAction", value: '"http://ws.cdyne.com/WeatherWS/GetCityForecastByZIP"' }));
    expect(soap.request.scripts.test).toContain('subject.includes("</GetCityForecastByZIPResult>")');
  });

  it("maps JMeter's advanced web template, listing what has no equivalent", () => {
    const { collections, warnings } = jmxToCollections(importFixture("build-adv-web-test-plan.jmx"));
    const [{ document, warnings: own }] = collections;
    const requests = requestsOf(document.items);
    expect(requests.map((r) => r.name)).toEqual(["Home Page", "Changes", "BugDetail Page"]);
    expect(requests[0].request.url).toBe("http://{{host}}/");
    expect(requests[0].request.headers).toContainEqual(expect.objectContaining({ key: "Accept-Language" }));
    const said = [...warnings, ...own].map((w) => w.message).join("\n");
    expect(said).toMatch(/GaussianRandomTimer/);
    expect(said).toMatch(/RegexExtractor/);
    expect(said).toMatch(/CSVDataSet/);
  });

  it("makes one collection per enabled thread group; controllers become folders", () => {
    const { collections, warnings } = jmxToCollections(TWO_GROUPS);
    expect(collections.map((c) => c.document.collection.name)).toEqual(["Shop / Browse", "Shop / Buy"]);
    const [browse, buy] = collections.map((c) => c.document);
    expect(browse.collection.variables).toEqual([expect.objectContaining({ key: "host", value: "shop.example" })]);
    expect(browse.items[0]).toMatchObject({ type: "folder", name: "Search" });
    const [find] = requestsOf(browse.items);
    expect(find.request).toMatchObject({ url: "https://{{host}}:8443/search", params: [expect.objectContaining({ key: "q", value: "{{term}}" })] });
    expect(requestsOf(buy.items).map((r) => r.name)).toEqual(["Cart"]);
    expect(collections[0].warnings.map((w) => w.message).join()).toMatch(/1 ConstantTimer element not imported/);
    expect(warnings.map((w) => w.message).join()).toMatch(/"Idle" is disabled/);
  });

  it("converts JMeter variables and properties", () => {
    expect(jmeterVariables("${a}/${__P(port,8080)}/${__P(env)}/${__time()}")).toBe("{{a}}/8080/{{env}}/${__time()}");
  });

  it("refuses what is not a plan, with the line and column", () => {
    expect(() => jmxToCollections("<html/>")).toThrow(/not a JMeter plan/);
    expect(() => jmxToCollections("<jmeterTestPlan>\n  <hashTree>\n</jmeterTestPlan>")).toThrow(expect.objectContaining({ location: expect.objectContaining({ line: expect.any(Number) }) }));
    expect(() => jmxToCollections('<jmeterTestPlan><hashTree><TestPlan testclass="TestPlan" testname="Empty"/><hashTree/></hashTree></jmeterTestPlan>')).toThrow(/no enabled thread group/);
  });
});
