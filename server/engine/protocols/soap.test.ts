import { describe, expect, it } from "vitest";
import { XMLValidator } from "fast-xml-parser";
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { faultEnvelope, looksLikeEnvelope, parseSoapEnvelope, placeSoap, SOAP11_NS, SOAP12_NS, soapPayloadText, soapSignals } from "./soap";

const def = (input: unknown) => ({ ...MockInput.parse(input), id: "m", namespace: "ns" }) as MockDefinition;
const envelope = (body: string, ns = SOAP11_NS) => `<?xml version="1.0"?><s:Envelope xmlns:s="${ns}" xmlns:t="urn:users"><s:Header/><s:Body>${body}</s:Body></s:Envelope>`;

describe("placeSoap", () => {
  it("routes at soap.path under pathPrefix (any path without one), selects by the operation's local name, matches the action as a header condition", () => {
    expect(placeSoap(def({ pathPrefix: "/ws", soap: { path: "/users", method: "tns:GetUser" } }))).toMatchObject({ route: "/ws/users", selector: "GetUser", conditions: { header: [] } });
    expect(placeSoap(def({ soap: { action: "urn:GetUser" } }))).toMatchObject({
      route: "/*",
      selector: null,
      conditions: { header: [{ path: "soapaction", assertAction: "equals", value: "urn:GetUser" }] },
    });
  });
});

describe("soapSignals", () => {
  it("reads SOAPAction (quotes removed) for 1.1 and the action parameter for 1.2", () => {
    expect(soapSignals({ soapaction: ['"urn:GetUser"'], "content-type": ["text/xml"] })).toEqual({ declared: true, action: "urn:GetUser", version: "1.1" });
    expect(soapSignals({ soapaction: ['""'] })).toMatchObject({ declared: true, action: undefined });
    expect(soapSignals({ "content-type": ['application/soap+xml; charset=utf-8; action="urn:Add"'] })).toEqual({ declared: true, action: "urn:Add", version: "1.2" });
    expect(soapSignals({ "content-type": ["text/xml"] })).toMatchObject({ declared: false });
  });

  it("recognises an envelope in an XML body without SOAPAction", () => {
    expect(looksLikeEnvelope("text/xml", envelope("<t:Ping/>"))).toBe(true);
    expect(looksLikeEnvelope("application/json", envelope("<t:Ping/>"))).toBe(false);
    expect(looksLikeEnvelope("text/xml", "<order><id>1</id></order>")).toBe(false);
  });
});

describe("parseSoapEnvelope", () => {
  it("gives the Body's first element (prefix dropped) and its content: children, @attributes, #text; values stay text", () => {
    const parsed = parseSoapEnvelope(envelope('<t:GetUser t:mode="full"><t:id>007</t:id><t:tag>a</t:tag><t:tag>b</t:tag><t:note lang="en">hi &amp; bye</t:note></t:GetUser>'), "1.1");
    expect(parsed).toEqual({ ok: true, call: { version: "1.1", operation: "GetUser", body: { "@mode": "full", id: "007", tag: ["a", "b"], note: { "@lang": "en", "#text": "hi & bye" } } } });
  });

  it("reads the version from the Envelope's namespace (else the headers' hint); an empty operation element is {}", () => {
    expect(parseSoapEnvelope(envelope("<t:Ping/>", SOAP12_NS), "1.1")).toEqual({ ok: true, call: { version: "1.2", operation: "Ping", body: {} } });
    expect(parseSoapEnvelope(envelope(`<t:Ping><t:ns>${SOAP12_NS}</t:ns></t:Ping>`), "1.2")).toMatchObject({ ok: true, call: { version: "1.1" } });
    expect(parseSoapEnvelope("<Envelope><Body><Ping/></Body></Envelope>", "1.2")).toMatchObject({ ok: true, call: { version: "1.2" } });
  });

  it("refuses DTDs (no entity expansion), malformed XML, non-envelopes, empty bodies, deep nesting and oversized envelopes as the caller's fault", () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>${envelope("<t:GetUser>&b;</t:GetUser>")}`;
    expect(parseSoapEnvelope(bomb, "1.1")).toMatchObject({ ok: false, status: 400, message: expect.stringMatching(/document type/) });
    const xxe = `<?xml version="1.0"?><!doctype x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${envelope("<t:GetUser>&e;</t:GetUser>")}`;
    expect(parseSoapEnvelope(xxe, "1.1")).toMatchObject({ ok: false, status: 400 });
    expect(parseSoapEnvelope(envelope("<t:GetUser><t:id>1</t:GetUser>"), "1.1")).toMatchObject({ ok: false, status: 400, message: expect.stringMatching(/Malformed XML/) });
    expect(parseSoapEnvelope("<order/>", "1.1")).toMatchObject({ ok: false, message: expect.stringMatching(/not a SOAP Envelope/) });
    expect(parseSoapEnvelope(envelope(""), "1.1")).toMatchObject({ ok: false, message: expect.stringMatching(/no element/) });
    expect(parseSoapEnvelope(envelope("<a>".repeat(500) + "</a>".repeat(500)), "1.1")).toMatchObject({ ok: false, status: 400 });
    expect(parseSoapEnvelope(envelope(`<t:Big>${"x".repeat(5 * 1024 * 1024)}</t:Big>`), "1.1")).toMatchObject({ ok: false, status: 413 });
  });
});

describe("envelopes out", () => {
  it("sends a string payload as written and wraps an object payload in an envelope of the call's version", () => {
    expect(soapPayloadText("<raw/>", "1.1")).toBe("<raw/>");
    const built = soapPayloadText({ "t:GetUserResponse": { "@xmlns:t": "urn:users", name: "A < B" } }, "1.2");
    expect(built).toContain(`<soap:Envelope xmlns:soap="${SOAP12_NS}"><soap:Body><t:GetUserResponse xmlns:t="urn:users"><name>A &lt; B</name></t:GetUserResponse></soap:Body></soap:Envelope>`);
    expect(XMLValidator.validate(built)).toBe(true);
    const whole = soapPayloadText({ "s:Envelope": { "@xmlns:s": SOAP11_NS, "s:Body": { Ok: "" } } }, "1.1");
    expect(whole).toMatch(/^<\?xml[^>]*\?><s:Envelope xmlns:s="http:\/\/schemas.xmlsoap.org\/soap\/envelope\/"><s:Body>/);
  });

  it("builds well-formed 1.1 and 1.2 faults with escaped text", () => {
    const f11 = faultEnvelope({ version: "1.1", side: "Server", message: "No mock <here>", detail: { requestId: "r&1" } });
    expect(f11).toContain("<faultcode>soap:Server</faultcode><faultstring>No mock &lt;here&gt;</faultstring>");
    expect(f11).toContain("<polymock:requestId>r&amp;1</polymock:requestId>");
    expect(XMLValidator.validate(f11)).toBe(true);
    const f12 = faultEnvelope({ version: "1.2", side: "Client", message: "bad", detail: {} });
    expect(f12).toContain("<soap:Value>soap:Sender</soap:Value>");
    expect(XMLValidator.validate(f12)).toBe(true);
  });
});
