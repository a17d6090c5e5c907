// A JMeter test plan (.jmx) → API tester collections, one per thread group
// (a thread group is JMeter's scenario; its threads and ramp-up belong to a
// load test, not to a collection). Read with the project's safe XML reader
// (server/generators/xml-tree.ts: no DTD, no entity expansion, size limit).
//   - every element of a <hashTree> is followed by the <hashTree> of its
//     children; config elements apply to the samplers in their scope, as in
//     JMeter: User Defined Variables → collection variables, HTTP Request
//     Defaults → the protocol/host/port/path a sampler leaves empty, HTTP
//     Header Managers → headers (inner ones override outer ones by name);
//   - HTTPSamplerProxy → a request (protocol, domain, port, path, method;
//     arguments as query parameters, a form or, with "Body Data", the raw
//     body; timeouts and redirects as settings); Response Assertions → a
//     test script; controllers → folders;
//   - `${var}` and `${__P(name)}` → `{{var}}`; other JMeter functions stay as
//     written; disabled elements are left out; what has no equivalent
//     (timers, extractors, listeners, non-HTTP samplers…) is listed as
//     warnings, by element and count.
import type { KeyValue, RequestDefinitionInput, Variable } from "@/server/contracts/tester-request";
import { GeneratorInputError } from "@/server/generators/input-error";
import { readXml, type XmlElement } from "@/server/generators/xml-tree";
import { collectionDocument, decodeCharRefs, folderItem, itemName, requestItem, variable, type ConvertedCollection, type ImportWarning, type ItemInput } from "./common";
import { languageOf } from "./har";

const THREAD_GROUPS = new Set(["ThreadGroup", "SetupThreadGroup", "PostThreadGroup", "kg.apc.jmeter.threads.UltimateThreadGroup", "com.blazemeter.jmeter.threads.concurrency.ConcurrencyThreadGroup", "com.blazemeter.jmeter.threads.arrivals.ArrivalsThreadGroup"]);
const HTTP_SAMPLERS = new Set(["HTTPSamplerProxy", "HTTPSampler", "HTTPSampler2"]);
const FOLDER_CONTROLLERS = new Set(["GenericController", "TransactionController"]);
const LOGIC_CONTROLLERS = new Set(["LoopController", "IfController", "WhileController", "OnceOnlyController", "RandomController", "RandomOrderController", "InterleaveControl", "ThroughputController", "RunTime", "SwitchController", "ForeachController", "CriticalSectionController", "RecordingController", "ModuleController", "IncludeController"]);
const IGNORED = new Set(["ResultCollector", "CookieManager", "CacheManager", "DNSCacheManager", "WorkBench", "TestFragmentController", "ProxyControl", "BackendListener", "Summariser"]);

/** JMeter's `${var}` and `${__P(name)}` / `${__property(name,…)}` → `{{name}}`; other functions are counted. */
export function jmeterVariables(text: string, functions?: { count: number }): string {
  const out = decodeCharRefs(text)
    // A property's default is what the plan runs with unless `-J` sets it.
    .replace(/\$\{__(?:P|property)\(\s*([A-Za-z_][\w.-]*)\s*(?:,([^)]*))?\)\}/g, (_, name: string, fallback: string | undefined) => (fallback !== undefined && fallback.trim() !== "" ? fallback.trim() : `{{${name}}}`))
    .replace(/\$\{([A-Za-z_][\w.-]*)\}/g, "{{$1}}");
  if (functions) functions.count += (out.match(/\$\{__/g) ?? []).length;
  return out;
}

interface Props {
  str: Map<string, string>;
  bool: Map<string, boolean>;
  el: Map<string, XmlElement>;
}

function propsOf(el: XmlElement): Props {
  const p: Props = { str: new Map(), bool: new Map(), el: new Map() };
  for (const c of el.children) {
    const name = c.attrs.name;
    if (!name) continue;
    if (c.name === "stringProp" || c.name === "intProp" || c.name === "longProp") p.str.set(name, c.text);
    else if (c.name === "boolProp") p.bool.set(name, c.text.trim() === "true");
    else if (c.name === "elementProp" || c.name === "collectionProp") p.el.set(name, c);
  }
  return p;
}

/** The Argument / Header entries of an Arguments or HeaderManager element. */
function entriesOf(container: XmlElement | undefined, nameKey: string, valueKey: string): { name: string; value: string; props: Props }[] {
  if (!container) return [];
  const collection = container.name === "collectionProp" ? container : container.children.find((c) => c.name === "collectionProp");
  return (collection?.children ?? [])
    .filter((c) => c.name === "elementProp")
    .map((c) => {
      const props = propsOf(c);
      return { name: props.str.get(nameKey) ?? "", value: props.str.get(valueKey) ?? "", props };
    });
}

/** Element + the hashTree of its children, in document order. */
function pairs(tree: XmlElement): { el: XmlElement; children: XmlElement | undefined }[] {
  const out: { el: XmlElement; children: XmlElement | undefined }[] = [];
  tree.children.forEach((c, i) => {
    if (c.name === "hashTree") return;
    const next = tree.children[i + 1];
    out.push({ el: c, children: next?.name === "hashTree" ? next : undefined });
  });
  return out;
}

const kindOf = (el: XmlElement) => el.attrs.testclass ?? el.name;

interface Defaults {
  protocol?: string;
  domain?: string;
  port?: string;
  path?: string;
}

interface Scope {
  defaults: Defaults;
  headers: KeyValue[];
}

interface Context {
  warnings: ImportWarning[];
  unsupported: Map<string, number>;
  disabled: { count: number };
  functions: { count: number };
  variables: Variable[];
}

const count = (ctx: Context, what: string) => ctx.unsupported.set(what, (ctx.unsupported.get(what) ?? 0) + 1);
const v = (ctx: Context, text: string) => jmeterVariables(text, ctx.functions);

function mergeHeaders(outer: KeyValue[], inner: KeyValue[]): KeyValue[] {
  const names = new Set(inner.map((h) => h.key.toLowerCase()));
  return [...outer.filter((h) => !names.has(h.key.toLowerCase())), ...inner];
}

/** The config elements of one level, applied to everything in it (JMeter scoping). */
function scopeOf(level: { el: XmlElement; children: XmlElement | undefined }[], outer: Scope, ctx: Context): Scope {
  let scope = outer;
  for (const { el } of level) {
    if (el.attrs.enabled === "false") continue;
    const kind = kindOf(el);
    if (kind === "ConfigTestElement" && (el.attrs.guiclass ?? "HttpDefaultsGui") === "HttpDefaultsGui") {
      const p = propsOf(el);
      const pick = (k: string, d: string | undefined) => (p.str.get(k)?.trim() ? v(ctx, p.str.get(k)!.trim()) : d);
      scope = { ...scope, defaults: { protocol: pick("HTTPSampler.protocol", scope.defaults.protocol), domain: pick("HTTPSampler.domain", scope.defaults.domain), port: pick("HTTPSampler.port", scope.defaults.port), path: pick("HTTPSampler.path", scope.defaults.path) } };
      if (entriesOf(p.el.get("HTTPsampler.Arguments"), "Argument.name", "Argument.value").length) ctx.warnings.push({ message: `the parameters of "${el.attrs.testname ?? "HTTP Request Defaults"}" are not added to each request` });
    } else if (kind === "HeaderManager") {
      const headers = entriesOf(el, "Header.name", "Header.value")
        .filter((h) => h.name)
        .map((h) => ({ key: h.name, value: v(ctx, h.value), enabled: true }));
      scope = { ...scope, headers: mergeHeaders(scope.headers, headers) };
    } else if (kind === "Arguments") {
      for (const a of entriesOf(el, "Argument.name", "Argument.value")) if (a.name) ctx.variables.push(variable(a.name, v(ctx, a.value)));
    }
  }
  return scope;
}

const SCOPE_KINDS = new Set(["ConfigTestElement", "HeaderManager", "Arguments"]);

/** Response Assertions → one pm.test each; undefined when the assertion checks what the tester cannot see. */
function assertionScript(el: XmlElement): string | undefined {
  const p = propsOf(el);
  const field = p.str.get("Assertion.test_field") ?? "Assertion.response_data";
  const type = Number(p.str.get("Assertion.test_type") ?? "2");
  const strings = (p.el.get("Asserion.test_strings") ?? p.el.get("Assertion.test_strings"))?.children.filter((c) => c.name === "stringProp").map((c) => c.text) ?? [];
  const subject: Record<string, string> = {
    "Assertion.response_data": "pm.response.text()",
    "Assertion.response_code": "String(pm.response.code)",
    "Assertion.response_message": "pm.response.status",
    "Assertion.response_headers": 'pm.response.headers.all().map((h) => `${h.key}: ${h.value}`).join("\\n")',
  };
  const expr = subject[field];
  if (!expr || !strings.length) return undefined;
  const check = (s: string) => {
    const lit = JSON.stringify(s);
    if (type & 8) return `subject === ${lit}`;
    if (type & 16) return `subject.includes(${lit})`;
    if (type & 1) return `new RegExp("^(?:" + ${lit} + ")$", "s").test(subject)`;
    return `new RegExp(${lit}).test(subject)`;
  };
  const joined = strings.map(check).join(type & 32 ? " || " : " && ");
  const test = type & 4 ? `!(${joined})` : joined;
  const name = JSON.stringify(el.attrs.testname ?? "Response Assertion");
  return `pm.test(${name}, () => {\n  const subject = ${expr};\n  pm.expect(${test}, ${JSON.stringify(`${field.replace("Assertion.", "")} ${strings.join(", ").slice(0, 200)}`)}).to.be.true;\n});`;
}

function samplerRequest(el: XmlElement, children: XmlElement | undefined, scope: Scope, ctx: Context): ItemInput {
  const p = propsOf(el);
  const str = (k: string) => v(ctx, (p.str.get(k) ?? "").trim());
  const inner = children ? pairs(children) : [];
  const local = scopeOf(inner, scope, ctx);
  const scripts: string[] = [];
  for (const { el: c } of inner) {
    if (c.attrs.enabled === "false") {
      ctx.disabled.count++;
      continue;
    }
    const kind = kindOf(c);
    if (SCOPE_KINDS.has(kind)) continue;
    if (kind === "ResponseAssertion") {
      const script = assertionScript(c);
      if (script) scripts.push(script);
      else count(ctx, kind);
    } else count(ctx, kind);
  }
  const d = local.defaults;
  const protocol = (str("HTTPSampler.protocol") || d.protocol || "http").toLowerCase();
  const domain = str("HTTPSampler.domain") || d.domain || "";
  const port = str("HTTPSampler.port") || d.port || "";
  let path = str("HTTPSampler.path") || d.path || "/";
  let url: string;
  if (/^https?:\/\//i.test(path)) url = path;
  else {
    if (!path.startsWith("/") && !path.startsWith("{{")) path = `/${path}`;
    const defaultPort = (protocol === "http" && port === "80") || (protocol === "https" && port === "443");
    url = `${protocol}://${domain}${port && !defaultPort ? `:${port}` : ""}${path}`;
    if (!domain) ctx.warnings.push({ message: `"${el.attrs.testname}" has no server name (nor do its HTTP Request Defaults): its URL needs a host` });
  }
  const method = (str("HTTPSampler.method") || "GET").toUpperCase();
  const args = entriesOf(p.el.get("HTTPsampler.Arguments"), "Argument.name", "Argument.value");
  const headers = [...local.headers];
  const def: RequestDefinitionInput = { kind: "http", method, url, headers, scripts: scripts.length ? { test: scripts.join("\n\n") } : {} };
  if (p.bool.get("HTTPSampler.postBodyRaw")) {
    const contentType = headers.find((h) => h.key.toLowerCase() === "content-type")?.value ?? "";
    def.body = { mode: "raw", raw: args.map((a) => v(ctx, a.value)).join(""), language: languageOf(contentType || (args[0]?.value.trimStart().startsWith("<") ? "xml" : args[0]?.value.trimStart().startsWith("{") ? "json" : "text")) };
  } else if (args.length) {
    const list: KeyValue[] = args.filter((a) => a.name).map((a) => ({ key: v(ctx, a.name), value: v(ctx, a.value), enabled: true }));
    if (["POST", "PUT", "PATCH"].includes(method)) def.body = p.bool.get("HTTPSampler.DO_MULTIPART_POST") ? { mode: "formdata", formdata: list.map((f) => ({ ...f, type: "text" as const })) } : { mode: "urlencoded", urlencoded: list };
    else def.params = list;
  }
  if (entriesOf(p.el.get("HTTPsampler.Files"), "File.path", "File.paramname").length) ctx.warnings.push({ message: `"${el.attrs.testname}" uploads files: add them to its form body by hand` });
  const timeout = Number(str("HTTPSampler.response_timeout"));
  def.settings = {
    ...(timeout > 0 && timeout <= 300_000 ? { timeoutMs: timeout } : {}),
    followRedirects: p.bool.get("HTTPSampler.follow_redirects") ?? p.bool.get("HTTPSampler.auto_redirects") ?? true,
  };
  return requestItem(el.attrs.testname ?? `${method} ${url}`, def);
}

/** The items of one level of a thread group (samplers and controllers), config applied. */
function itemsOf(tree: XmlElement | undefined, outer: Scope, ctx: Context, depth: number): ItemInput[] {
  if (!tree) return [];
  const level = pairs(tree);
  const scope = scopeOf(level, outer, ctx);
  const items: ItemInput[] = [];
  for (const { el, children } of level) {
    const kind = kindOf(el);
    if (el.attrs.enabled === "false") {
      ctx.disabled.count++;
      continue;
    }
    if (SCOPE_KINDS.has(kind) && (kind !== "ConfigTestElement" || (el.attrs.guiclass ?? "HttpDefaultsGui") === "HttpDefaultsGui")) continue;
    if (HTTP_SAMPLERS.has(kind)) items.push(samplerRequest(el, children, scope, ctx));
    else if (FOLDER_CONTROLLERS.has(kind) || LOGIC_CONTROLLERS.has(kind)) {
      if (LOGIC_CONTROLLERS.has(kind)) ctx.warnings.push({ message: `${kind} "${el.attrs.testname}" becomes a folder: its logic (loops, conditions) is not kept` });
      const inner = depth < 14 ? itemsOf(children, scope, ctx, depth + 1) : [];
      if (inner.length) items.push(folderItem(el.attrs.testname ?? kind, inner));
    } else if (!IGNORED.has(kind)) count(ctx, kind);
  }
  return items;
}

export function jmxToCollections(text: string): { collections: ConvertedCollection[]; warnings: ImportWarning[] } {
  const doc = readXml(text);
  const root = doc.root;
  if (root.name !== "jmeterTestPlan") throw new GeneratorInputError(`not a JMeter plan: the root element is <${root.name}>, not <jmeterTestPlan>`, doc.where(root.at));
  const top = root.children.find((c) => c.name === "hashTree");
  const planPair = top ? pairs(top).find((p) => kindOf(p.el) === "TestPlan") : undefined;
  if (!planPair) throw new GeneratorInputError("the plan has no <TestPlan> element", doc.where((top ?? root).at));
  const plan = planPair.el;
  const planName = itemName(plan.attrs.testname, "Test Plan");
  const planVars: Variable[] = [];
  const planCtx: Context = { warnings: [], unsupported: new Map(), disabled: { count: 0 }, functions: { count: 0 }, variables: planVars };
  for (const a of entriesOf(propsOf(plan).el.get("TestPlan.user_defined_variables"), "Argument.name", "Argument.value")) if (a.name) planVars.push(variable(a.name, v(planCtx, a.value)));
  const level = planPair.children ? pairs(planPair.children) : [];
  const planScope = scopeOf(level, { defaults: {}, headers: [] }, planCtx);
  const groups = level.filter((p) => THREAD_GROUPS.has(kindOf(p.el)) || /ThreadGroup$/.test(kindOf(p.el)));
  const collections: ConvertedCollection[] = [];
  for (const { el, children } of groups) {
    const tgName = itemName(el.attrs.testname, "Thread Group");
    if (el.attrs.enabled === "false") {
      planCtx.warnings.push({ message: `thread group "${tgName}" is disabled: not imported` });
      continue;
    }
    const ctx: Context = { warnings: [], unsupported: new Map(), disabled: { count: 0 }, functions: { count: 0 }, variables: [...planVars] };
    const items = itemsOf(children, planScope, ctx, 0);
    if (!items.length) {
      planCtx.warnings.push({ message: `thread group "${tgName}" has no HTTP requests: not imported` });
      continue;
    }
    for (const [kind, n] of ctx.unsupported) ctx.warnings.push({ message: `${n} ${kind} element${n === 1 ? "" : "s"} not imported: the API tester has no equivalent` });
    if (ctx.disabled.count) ctx.warnings.push({ message: `${ctx.disabled.count} disabled element(s) left out` });
    if (ctx.functions.count) ctx.warnings.push({ message: `${ctx.functions.count} JMeter function call(s) (\${__…}) kept as written: replace them with variables or scripts` });
    const name = groups.length === 1 ? planName : `${planName} / ${tgName}`;
    const comments = propsOf(el).str.get("TestPlan.comments") ?? "";
    collections.push({ document: collectionDocument({ name, description: comments, variables: ctx.variables, items }), warnings: ctx.warnings });
  }
  for (const { el } of level) {
    const kind = kindOf(el);
    if (!groups.some((g) => g.el === el) && !SCOPE_KINDS.has(kind) && !IGNORED.has(kind)) count(planCtx, kind);
  }
  for (const [kind, n] of planCtx.unsupported) planCtx.warnings.push({ message: `${n} ${kind} element${n === 1 ? "" : "s"} at the plan's top not imported` });
  if (!collections.length) throw new GeneratorInputError("the plan has no enabled thread group with HTTP requests", doc.where(plan.at));
  return { collections, warnings: planCtx.warnings };
}
