// A SoapUI project (the `*-soapui-project.xml` SoapUI 4/5 and ReadyAPI save)
// → an API tester collection, read with the project's safe XML reader
// (server/generators/xml-tree.ts: no DTD, no entity expansion, size limit):
//   - project properties → collection variables; `${#Project#name}` and
//     `${name}` property expansions → `{{name}}`;
//   - a folder per interface: WSDL interfaces hold a SOAP request per saved
//     call (envelope, SOAPAction, SOAP 1.1/1.2 from the interface, endpoint),
//     REST services a request per saved method request (endpoint + resource
//     path, query/header/template parameters, body, media type);
//   - a folder per test suite with a sub-folder per test case holding its
//     request steps in order (SOAP, REST and HTTP steps);
//   - Basic credentials → basic auth; custom headers (SoapUI keeps them as an
//     escaped <xml-fragment> setting) → headers.
// What has no equivalent (Groovy and property-transfer steps, assertions,
// load tests, mock services, WS-Security) is counted in the warnings.
import type { KeyValue, RequestAuth, RequestDefinitionInput, Variable } from "@/server/contracts/tester-request";
import { GeneratorInputError } from "@/server/generators/input-error";
import { childOf, childrenOf, readXml, type XmlElement } from "@/server/generators/xml-tree";
import { collectionDocument, decodeCharRefs, dollarVariables, folderItem, requestItem, variable, type ConvertedCollection, type ImportWarning, type ItemInput } from "./common";
import { languageOf } from "./har";

export const SOAPUI_NS = "http://eviware.com/soapui/config";

const child = (el: XmlElement | undefined, name: string) => (el ? childOf(el, SOAPUI_NS, name) : undefined);
const children = (el: XmlElement | undefined, name: string) => (el ? childrenOf(el, SOAPUI_NS, name) : []);
const textOf = (el: XmlElement | undefined) => (el && el.attrs["xsi:nil"] !== "true" ? decodeCharRefs(el.text) : "");
const xsiType = (el: XmlElement) => (el.attrs["xsi:type"] ?? "").replace(/^con:/, "");

function propertiesOf(el: XmlElement | undefined): Variable[] {
  return children(child(el, "properties"), "property")
    .map((p) => ({ key: textOf(child(p, "name")).trim(), value: textOf(child(p, "value")) }))
    .filter((p) => p.key)
    .map((p) => variable(p.key, dollarVariables(p.value)));
}

/** SoapUI's custom headers: an escaped `<xml-fragment><con:entry key= value=/>…` inside a setting. */
function headersOf(request: XmlElement): KeyValue[] {
  const setting = children(child(request, "settings"), "setting").find((s) => /@request-headers$/.test(s.attrs.id ?? ""));
  if (!setting?.text) return [];
  const out: KeyValue[] = [];
  for (const m of setting.text.matchAll(/<(?:\w+:)?entry\b([^>]*)\/?>/g)) {
    const key = /\bkey="([^"]*)"/.exec(m[1])?.[1];
    const value = /\bvalue="([^"]*)"/.exec(m[1])?.[1] ?? "";
    if (key) out.push({ key: unescapeXml(key), value: dollarVariables(unescapeXml(value)), enabled: true });
  }
  return out;
}

const unescapeXml = (s: string) => s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

function authOf(request: XmlElement): RequestAuth {
  const creds = child(request, "credentials");
  const type = textOf(child(creds, "authType"));
  const username = textOf(child(creds, "username"));
  if (username && (type === "" || /basic|global http settings/i.test(type))) return { type: "basic", basic: { username: dollarVariables(username), password: dollarVariables(textOf(child(creds, "password"))) } };
  return { type: "inherit" };
}

const joinUrl = (base: string, path: string) => (path ? `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}` : base);

interface Context {
  warnings: ImportWarning[];
  unsupported: Map<string, number>;
  /** REST method → its resource path (joined up the resource tree) and parameter definitions, by "service\u0000method". */
  restMethods: Map<string, { path: string; params: XmlElement[] }>;
  /** WSDL interface name → SOAP version. */
  soapVersions: Map<string, "1.1" | "1.2">;
  /** "interface\u0000operation" → SOAPAction (a test step names the operation, not its action). */
  soapActions: Map<string, string>;
  /** "service\u0000method name" → HTTP method. */
  restMethodVerbs: Map<string, string>;
}

const count = (ctx: Context, what: string, n = 1) => n > 0 && ctx.unsupported.set(what, (ctx.unsupported.get(what) ?? 0) + n);

function soapRequest(name: string, request: XmlElement, action: string | undefined, version: "1.1" | "1.2", ctx: Context): ItemInput {
  count(ctx, "assertions", children(request, "assertion").length);
  return requestItem(name, {
    kind: "soap",
    method: "POST",
    url: dollarVariables(textOf(child(request, "endpoint"))),
    headers: headersOf(request),
    body: { mode: "raw", language: "xml", raw: dollarVariables(textOf(child(request, "request"))) },
    soap: { ...(action ? { action } : {}), version },
    auth: authOf(request),
  });
}

function restRequest(name: string, request: XmlElement, method: string, path: string, defs: XmlElement[], ctx: Context): ItemInput {
  count(ctx, "assertions", children(request, "assertion").length);
  const values = new Map(children(child(request, "parameters"), "entry").map((e) => [e.attrs.key ?? "", e.attrs.value ?? ""]));
  const params: KeyValue[] = [];
  const headers = headersOf(request);
  let url = joinUrl(dollarVariables(textOf(child(request, "endpoint"))), path);
  for (const def of defs) {
    const pname = textOf(child(def, "name"));
    if (!pname) continue;
    const value = dollarVariables(values.get(pname) ?? textOf(child(def, "value")) ?? textOf(child(def, "default")));
    const style = textOf(child(def, "style")).toUpperCase() || "QUERY";
    if (style === "TEMPLATE") url = url.replace(`{${pname}}`, value || `{{${pname}}}`);
    else if (style === "HEADER") headers.push({ key: pname, value, enabled: true });
    else params.push({ key: pname, value, enabled: true });
  }
  for (const [key, value] of values) if (!defs.some((d) => textOf(child(d, "name")) === key)) params.push({ key, value: dollarVariables(value), enabled: true });
  const mediaType = request.attrs.mediaType ?? "";
  const text = textOf(child(request, "request"));
  const def: RequestDefinitionInput = { kind: "http", method: (method || "GET").toUpperCase(), url: url.replace(/\{([A-Za-z_][\w.-]*)\}/g, "{{$1}}"), headers, params, auth: authOf(request) };
  if (text.trim()) {
    def.body = { mode: "raw", raw: dollarVariables(text), language: languageOf(mediaType) };
    if (mediaType && !headers.some((h) => h.key.toLowerCase() === "content-type")) headers.push({ key: "Content-Type", value: mediaType, enabled: true });
  } else if (request.attrs.postQueryString === "true" && params.length) {
    def.body = { mode: "urlencoded", urlencoded: params.splice(0) };
  }
  return requestItem(name, def);
}

function collectResources(service: string, parent: XmlElement, base: string, ctx: Context, out: ItemInput[]) {
  for (const resource of children(parent, "resource")) {
    const path = joinUrl(base, resource.attrs.path ?? "");
    const resourceParams = children(child(resource, "parameters"), "parameter");
    for (const method of children(resource, "method")) {
      const params = [...resourceParams, ...children(child(method, "parameters"), "parameter")];
      ctx.restMethods.set(`${service}\u0000${method.attrs.name ?? ""}`, { path, params });
      for (const request of children(method, "request")) out.push(restRequest(request.attrs.name ?? method.attrs.name ?? path, request, method.attrs.method ?? "GET", path, params, ctx));
    }
    collectResources(service, resource, path, ctx, out);
  }
}

function interfaceFolder(iface: XmlElement, ctx: Context): ItemInput | undefined {
  const name = iface.attrs.name ?? "Interface";
  const type = xsiType(iface);
  const items: ItemInput[] = [];
  if (type === "WsdlInterface") {
    const version = iface.attrs.soapVersion === "1_2" ? "1.2" : "1.1";
    ctx.soapVersions.set(name, version);
    for (const op of children(iface, "operation")) {
      for (const call of children(op, "call")) items.push(soapRequest(call.attrs.name ?? op.attrs.name ?? "call", call, op.attrs.action || undefined, version, ctx));
    }
  } else if (type === "RestService") {
    collectResources(name, iface, iface.attrs.basePath && iface.attrs.basePath !== "/" ? iface.attrs.basePath : "", ctx, items);
  } else {
    ctx.warnings.push({ message: `interface "${name}" is a ${type || "kind of interface"} SoapUI project this importer does not read: skipped` });
    return undefined;
  }
  return folderItem(name, items);
}

function testStep(step: XmlElement, ctx: Context): ItemInput | undefined {
  const type = step.attrs.type ?? "";
  const config = child(step, "config");
  const name = step.attrs.name ?? type;
  if (step.attrs.disabled === "true") {
    count(ctx, "disabled test steps");
    return undefined;
  }
  if (type === "request" && config) {
    const request = child(config, "request");
    if (!request) return undefined;
    const iface = textOf(child(config, "interface"));
    const operation = textOf(child(config, "operation"));
    // The operation's SOAPAction is the interface's; a step does not repeat it.
    const action = ctx.soapActions.get(`${iface}\u0000${operation}`);
    return soapRequest(name, request, action, ctx.soapVersions.get(iface) ?? "1.1", ctx);
  }
  if ((type === "restrequest" || type === "httprequest") && config) {
    const request = child(config, "restRequest") ?? child(config, "request");
    if (!request) return undefined;
    if (type === "httprequest") return restRequest(name, request, config.attrs.method ?? "GET", "", [], ctx);
    const found = ctx.restMethods.get(`${config.attrs.service ?? ""}\u0000${config.attrs.methodName ?? ""}`);
    const method = ctx.restMethodVerbs.get(`${config.attrs.service ?? ""}\u0000${config.attrs.methodName ?? ""}`) ?? "GET";
    return restRequest(name, request, method, found?.path ?? config.attrs.resourcePath ?? "", found?.params ?? [], ctx);
  }
  count(ctx, `"${type}" test steps`);
  return undefined;
}

export function soapuiToCollection(text: string): ConvertedCollection {
  const doc = readXml(text);
  const root = doc.root;
  if (root.ns !== SOAPUI_NS || root.name !== "soapui-project") throw new GeneratorInputError(`not a SoapUI project: the root element is <${root.name}>, not <con:soapui-project> in ${SOAPUI_NS}`, doc.where(root.at));
  const ctx: Context = { warnings: [], unsupported: new Map(), restMethods: new Map(), soapVersions: new Map(), soapActions: new Map(), restMethodVerbs: new Map() };
  for (const iface of children(root, "interface")) {
    for (const op of children(iface, "operation")) if (op.attrs.action) ctx.soapActions.set(`${iface.attrs.name}\u0000${op.attrs.name}`, op.attrs.action);
    const walk = (parent: XmlElement) => {
      for (const r of children(parent, "resource")) {
        for (const m of children(r, "method")) ctx.restMethodVerbs.set(`${iface.attrs.name}\u0000${m.attrs.name}`, m.attrs.method ?? "GET");
        walk(r);
      }
    };
    walk(iface);
  }
  const items: ItemInput[] = [];
  for (const iface of children(root, "interface")) {
    const folder = interfaceFolder(iface, ctx);
    if (folder) items.push(folder);
  }
  for (const suite of children(root, "testSuite")) {
    const cases = children(suite, "testCase").map((tc) => {
      count(ctx, "load tests", children(tc, "loadTest").length);
      const steps = children(tc, "testStep")
        .map((s) => testStep(s, ctx))
        .filter((s): s is ItemInput => s !== undefined);
      return folderItem(tc.attrs.name ?? "TestCase", steps, { description: textOf(child(tc, "description")) });
    });
    items.push(folderItem(suite.attrs.name ?? "TestSuite", cases, { description: textOf(child(suite, "description")) }));
  }
  count(ctx, "mock services", children(root, "mockService").length + children(root, "restMockService").length);
  for (const [what, n] of ctx.unsupported) ctx.warnings.push({ message: `${n} ${what} not imported: the API tester has no equivalent (write them as test scripts)` });
  if (/\$\{=/.test(text)) ctx.warnings.push({ message: "Groovy expressions (${=…}) are kept as written: replace them with variables or scripts" });
  if (!items.length) throw new GeneratorInputError("the SoapUI project has no interfaces or test suites", doc.where(root.at));
  const variables = propertiesOf(root);
  return { document: collectionDocument({ name: root.attrs.name ?? "SoapUI project", description: textOf(child(root, "description")), variables, items }), warnings: ctx.warnings };
}
