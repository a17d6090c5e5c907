// SOAP mocks end to end with a real client (the `soap` package, built from a
// WSDL: server/testing/wsdl/users.wsdl) against the node:http fast path
// (handleStubRequest) on a real socket.
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import * as soap from "soap";
import { describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { invalidateAll } from "@/server/serving/mock-index";
import { createMockFromUndefinedRequest } from "@/server/services/undefined-requests";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { stubRecorder } from "@/server/serving/recorder";

useTestDatabase();

const WSDL = path.join(__dirname, "../testing/wsdl/users.wsdl");
const NS = "urn:polymock:users";

const stub = useStubServer("soapy", { requestId: "soap-test-request" });

const client = (endpointPath = "/ws/users", options: soap.IOptions = {}) => soap.createClientAsync(WSDL, { endpoint: `${stub.base}${endpointPath}`, ...options });

/** A response envelope in the service's namespace, as a mock's raw payload. */
const envelope = (inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:u="${NS}"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
const userResponse = (id: string, name: string, tier = "standard") => envelope(`<u:GetUserResponse><u:id>${id}</u:id><u:name>${name}</u:name><u:tier>${tier}</u:tier></u:GetUserResponse>`);

type SoapFault = Error & { response?: { status: number; headers: Record<string, string> }; body?: string; root?: { Envelope: { Body: { Fault: Record<string, unknown> } } } };
async function fault(p: Promise<unknown>): Promise<SoapFault> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as SoapFault;
}

const xml = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, attributeNamePrefix: "@" });

describe("SOAP mocks with the soap client", () => {
  it("answers an operation (the Body's first element) with the mock's raw envelope as text/xml, logs the hit", async () => {
    const { mock } = await stub.save({ soap: { service: "UserService", method: "GetUser", path: "/ws/users" }, response: { payload: userResponse("1", "Ada"), headers: { "Content-Type": "text/xml" } } });
    const c = await client();
    const [result, raw] = await c.GetUserAsync({ id: "1" });
    expect(result).toEqual({ id: "1", name: "Ada", tier: "standard" });
    expect(raw).toContain("<u:GetUserResponse>");
    await stubRecorder().drain();
    const logs = await db().requestLog.findMany({ where: { mockId: mock.id } });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ method: "POST", url: "/ws/users", status: 200 });
    expect(String(logs[0].body)).toContain("GetUser");
  });

  it("conditions over the XML body (JSON paths, prefixes dropped) choose among several mocks of one operation", async () => {
    await stub.save({ priority: 1, soap: { method: "GetUser", path: "/ws/users", conditions: [{ path: "$.id", assertAction: "equals", value: "2" }] }, response: { payload: userResponse("2", "Grace", "gold") } });
    await stub.save({ soap: { method: "GetUser", path: "/ws/users", conditions: [{ path: "$.id", assertAction: "matches", value: "^9" }] }, response: { payload: userResponse("9x", "Nine") } });
    const c = await client();
    expect((await c.GetUserAsync({ id: "2" }))[0]).toEqual({ id: "2", name: "Grace", tier: "gold" });
    expect((await c.GetUserAsync({ id: "99" }))[0]).toMatchObject({ name: "Nine" });
    expect((await c.GetUserAsync({ id: "1" }))[0]).toMatchObject({ name: "Ada" });
  });

  it("matches by soap.action and renders templates ($.req from the Body element, the action, fakes); Content-Type defaults to text/xml", async () => {
    await stub.save({
      soap: { action: "urn:polymock:users/CreateUser", path: "/ws/users" },
      response: { payload: envelope("<u:CreateUserResponse><u:id>$.fake.UUID</u:id><u:name>Hello $.req.name</u:name><u:action>{{$.reqHeader.soapaction[0]}}</u:action></u:CreateUserResponse>") },
    });
    const c = await client();
    const [result, , , ] = await c.CreateUserAsync({ name: "Ada", email: "ada@example.com" });
    expect(result).toMatchObject({ name: "Hello Ada", action: "urn:polymock:users/CreateUser" });
    expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(c.lastResponseHeaders?.["content-type"]).toBe("text/xml; charset=utf-8");
  });

  it("speaks SOAP 1.2 (action in the content type; answers application/soap+xml), with an object payload built into an envelope", async () => {
    await stub.save({ soap: { method: "DeleteUser", path: "/ws/v12" }, response: { payload: { "u:DeleteUserResponse": { "@xmlns:u": NS, "u:ok": "true" } } } });
    const c = await client("/ws/v12", { forceSoap12Headers: true });
    const [result] = await c.DeleteUserAsync({ id: "5" });
    expect(result).toEqual({ ok: true });
    expect(c.lastResponseHeaders?.["content-type"]).toBe("application/soap+xml; charset=utf-8");
    expect(c.lastRequestHeaders?.["Content-Type"]).toContain('action="urn:polymock:users/DeleteUser"');
  });

  it("an unmatched call is a SOAP Server fault (500) carrying the request id and nearest mocks, captured as an undefined request", async () => {
    const c = await client();
    const err = await fault(c.DeleteUserAsync({ id: "1" }));
    expect(err.response?.status).toBe(500);
    const f = err.root!.Envelope.Body.Fault;
    expect(f).toMatchObject({ faultcode: "soap:Server", faultstring: expect.stringMatching(/No mock matches SOAP operation 'DeleteUser' \(action 'urn:polymock:users\/DeleteUser'\) at \/ws\/users/) });
    const detail = xml.parse(err.body!).Envelope.Body.Fault.detail.error;
    expect(detail).toMatchObject({ code: "not_found", requestId: "soap-test-request", namespace: "soapy" });
    expect(detail.nearest.mock.length).toBeGreaterThan(0);
    await stubRecorder().drain();
    const captured = await db().undefinedRequest.findMany({ where: { protocol: "soap" } });
    expect(captured).toHaveLength(1);
    expect(captured[0]).toMatchObject({ method: "POST", path: "/ws/users DeleteUser", count: 1 });
    expect(String(captured[0].body)).toContain("DeleteUser");

    // The captured miss becomes a SOAP mock of that operation (here with the caller's response).
    await createMockFromUndefinedRequest(stub.actor, stub.scope, captured[0].id, { response: { payload: { "u:DeleteUserResponse": { "@xmlns:u": NS, "u:ok": "true" } } } });
    invalidateAll();
    expect((await c.DeleteUserAsync({ id: "1" }))[0]).toEqual({ ok: true });
  });

  it("duplicate detection: the same operation, action, path and conditions is a duplicate; another operation or path is not", async () => {
    const def = { soap: { method: "Dup", path: "/dup" }, response: { payload: "<a/>" } };
    await stub.save(def);
    await expect(stub.save({ ...def, response: { payload: "<b/>" } })).rejects.toMatchObject({ code: "duplicate_entity" });
    await expect(stub.save({ ...def, soap: { ...def.soap, method: "tns:Dup" } })).rejects.toMatchObject({ code: "duplicate_entity" });
    await stub.save({ ...def, soap: { ...def.soap, method: "Dup2" } });
    await stub.save({ ...def, soap: { ...def.soap, path: "/dup2" } });
    await stub.save({ ...def, soap: { ...def.soap, action: "urn:dup" } });
  });

  it("serves soap.path under pathPrefix; a mock without soap.path answers at any path", async () => {
    await stub.save({ pathPrefix: "/legacy", soap: { method: "GetUser", path: "/svc" }, response: { payload: userResponse("L", "Legacy") } });
    expect((await (await client("/legacy/svc")).GetUserAsync({ id: "1" }))[0]).toMatchObject({ name: "Legacy" });
    await stub.save({ soap: { method: "CreateUser" }, response: { payload: envelope("<u:CreateUserResponse><u:id>1</u:id><u:name>anywhere</u:name></u:CreateUserResponse>") } });
    expect((await (await client("/some/where")).CreateUserAsync({ name: "x", email: "y" }))[0]).toMatchObject({ name: "anywhere" });
  });

  it("recognises an envelope POSTed as text/xml without SOAPAction where SOAP mocks live; plain XML and other paths stay HTTP", async () => {
    await stub.save({ http: { route: "/orders", httpMethod: "POST" }, response: { payload: "<ok/>", headers: { "Content-Type": "text/xml" } } });
    const body = `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><u:GetUser xmlns:u="${NS}"><u:id>2</u:id></u:GetUser></s:Body></s:Envelope>`;
    const soapy = await fetch(`${stub.base}/ws/users`, { method: "POST", headers: { "content-type": "text/xml" }, body });
    expect(soapy.status).toBe(200);
    expect(await soapy.text()).toContain("<u:name>Grace</u:name>");
    const plain = await fetch(`${stub.base}/orders`, { method: "POST", headers: { "content-type": "text/xml" }, body: "<order/>" });
    expect(await plain.text()).toBe("<ok/>");
    // A SOAP call to a path only an HTTP mock serves is that mock's.
    const viaHttp = await fetch(`${stub.base}/orders`, { method: "POST", headers: { "content-type": "text/xml", SOAPAction: '"x"' }, body });
    expect(await viaHttp.text()).toBe("<ok/>");
  });

  it("malformed XML, a DTD, or a body that is no envelope is a Client fault (400), never a 500", async () => {
    const post = (body: string, headers: Record<string, string> = { "content-type": "text/xml", SOAPAction: '"urn:polymock:users/GetUser"' }) =>
      fetch(`${stub.base}/ws/users`, { method: "POST", headers, body });
    for (const body of [
      "<s:Envelope><s:Body><GetUser>",
      `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><GetUser>&e;</GetUser></s:Body></s:Envelope>`,
      "<order/>",
      "",
    ]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.headers.get("x-request-id")).toBe("soap-test-request");
      const f = xml.parse(await res.text()).Envelope.Body.Fault;
      expect(f.faultcode).toBe("soap:Client");
      expect(f.detail.error).toMatchObject({ code: "validation", requestId: "soap-test-request" });
    }
    const v12 = await post("<broken", { "content-type": "application/soap+xml; charset=utf-8" });
    expect(v12.status).toBe(400);
    expect(xml.parse(await v12.text()).Envelope.Body.Fault.Code.Value).toBe("soap:Sender");
  });

  it("response.soapFault is answered as a Fault of the request's SOAP version with its httpStatus; the client raises it", async () => {
    await stub.save({
      soap: { method: "DeleteUser", path: "/ws/faults" },
      response: { soapFault: { faultCode: "Client", faultString: "user 5 is protected", faultActor: "urn:polymock:users", detail: `<u:reason xmlns:u="${NS}">protected</u:reason>`, httpStatus: 422 } },
    });
    const err = await fault((await client("/ws/faults")).DeleteUserAsync({ id: "5" }));
    expect(err.response?.status).toBe(422);
    expect(err.response?.headers["content-type"]).toBe("text/xml; charset=utf-8");
    expect(err.root!.Envelope.Body.Fault).toMatchObject({ faultcode: "env:Client", faultstring: "user 5 is protected", faultactor: "urn:polymock:users" });
    expect(err.body).toContain(`<detail><u:reason xmlns:u="${NS}">protected</u:reason></detail>`);

    const err12 = await fault((await client("/ws/faults", { forceSoap12Headers: true })).DeleteUserAsync({ id: "5" }));
    expect(err12.response?.status).toBe(422);
    expect(err12.response?.headers["content-type"]).toBe("application/soap+xml; charset=utf-8");
    const f12 = xml.parse(err12.body!).Envelope.Body.Fault;
    expect(f12).toMatchObject({ Code: { Value: "env:Sender" }, Reason: { Text: { "#text": "user 5 is protected" } }, Role: "urn:polymock:users" });
    expect(err12.body).toContain(`<env:Detail><u:reason xmlns:u="${NS}">protected</u:reason></env:Detail>`);
    expect(err12.message).toContain("user 5 is protected");

    // Without httpStatus a fault is a 500; the request log records that status.
    const { mock } = await stub.save({ soap: { method: "CreateUser", path: "/ws/faults" }, response: { soapFault: { faultString: "backend down" } } });
    const err500 = await fault((await client("/ws/faults")).CreateUserAsync({ name: "a", email: "a@example.com" }));
    expect(err500.response?.status).toBe(500);
    expect(err500.root!.Envelope.Body.Fault).toMatchObject({ faultcode: "env:Server", faultstring: "backend down" });
    await stubRecorder().drain();
    expect((await db().requestLog.findMany({ where: { mockId: mock.id } })).map((l) => l.status)).toEqual([500]);
  });
});
