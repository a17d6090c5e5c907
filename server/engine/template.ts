// The template language of payloads, headers, webhook bodies, extract
// expressions and template files. A template is parsed once per mock version
// (compileTemplate / compileString) into a tree whose static parts are frozen
// copies; rendering only visits the placeholders. Nothing here evaluates code:
// a placeholder is a root name plus a data path read with own-property lookups.
//
// Rules:
// - Roots: $.fake.<Name>, $.req, $.reqHeader, $.queryParams, $.pathParam,
//   $.namespace, $.gS, $.cS, $.mS. Anything else after "$." ($.price, $.fake.Nope)
//   is plain text and stays as written. Root names are case-sensitive; fake names
//   and header names are not.
// - Whole string: a JSON string that is exactly one bare placeholder becomes the
//   value with its JSON type (3 stays 3, an object stays an object); a missing
//   value becomes null.
// - Embedded: inside a longer string (and in object keys, headers, URLs, template
//   text) the value's text form is inserted: strings as is, numbers and booleans
//   printed, objects and arrays as JSON, missing or null as "".
// - Bare placeholders end at the first character that cannot continue the path:
//   a segment is letters, digits and "_", with "-" allowed between them
//   (x-trace-id); "." continues only before a segment character, so a sentence's
//   final "." is text; [0], [-1], ['odd.key'] index.
// - Braces win: "{{ $.req.first name }}" takes everything between the braces as
//   the path, and always yields text, so "{{$.req.count}}" is the string "3".
// - $.queryParams.<name> is the single value when the parameter occurs once and
//   the list when it repeats; $.queryParams.<name>[0] always indexes the list.
//   $.reqHeader.<name> is the list (spec: values are lists); [0] gives the value.
import { drawFake, findFakeGenerator } from "./fake";
import { getPath, parsePath, type Lookup, type PathSegment } from "./json-path";
import { MockError } from "./mock-error";
import type { TemplateContext } from "./types";

export const TEMPLATE_LIMITS = {
  /** Nesting of arrays and objects in a template. */
  maxDepth: 200,
  /** Rendered size in characters of JSON text (about bytes for ASCII). */
  maxOutputSize: 10 * 1024 * 1024,
};

export class TemplateError extends MockError {
  constructor(
    readonly code: "template_too_deep" | "template_too_large",
    message: string,
  ) {
    super(message);
    this.name = "TemplateError";
  }
}

export interface RenderOptions {
  maxOutputSize?: number;
}

type Resolve = (ctx: TemplateContext) => Lookup;
interface Placeholder {
  resolve: Resolve;
  /** Written inside {{ }}: always rendered as text. */
  braced: boolean;
}
type Part = string | Placeholder;

interface StaticNode {
  kind: "static";
  value: unknown;
  size: number;
}
interface ValueNode {
  kind: "value";
  placeholder: Placeholder;
}
interface TextNode {
  kind: "text";
  parts: Part[];
  literalSize: number;
}
interface ArrayNode {
  kind: "array";
  items: Node[];
}
interface ObjectNode {
  kind: "object";
  entries: { key: string | TextNode; value: Node }[];
}
type Node = StaticNode | ValueNode | TextNode | ArrayNode | ObjectNode;

/** A JSON value prepared for rendering. Treat rendered output as read-only: static parts are shared, frozen copies. */
export interface CompiledTemplate {
  readonly hasPlaceholders: boolean;
  readonly node: Node;
}

/** A header value, URL or path prepared for rendering; always renders to a string. */
export interface CompiledString {
  readonly hasPlaceholders: boolean;
  readonly source: string;
  readonly node: StaticNode | TextNode;
}

// ---------------------------------------------------------------- placeholders

const FOUND = (value: unknown): Lookup => ({ found: true, value });
const MISSING: Lookup = { found: false, value: undefined };

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function readHeader(headers: Record<string, string[]>, lowerName: string): string[] | undefined {
  const direct = own(headers, lowerName) as string[] | undefined;
  if (direct !== undefined) return direct;
  // Adapters are asked for lower-case names; tolerate one that forgot.
  for (const name of Object.keys(headers)) if (name.toLowerCase() === lowerName) return headers[name];
  return undefined;
}

/** From a value found at the first segment, follow the rest of the path. */
const follow = (value: unknown, rest: PathSegment[]): Lookup => (value === undefined ? MISSING : rest.length === 0 ? FOUND(value) : getPath(value, rest));

/** The reader for `$.<root><path>`; undefined when the root needs a path it lacks. */
function resolverFor(root: string, path: PathSegment[]): Resolve | undefined {
  const name = path.length > 0 ? String(path[0]) : "";
  const rest = path.slice(1);
  switch (root) {
    case "namespace":
      return path.length === 0 ? (ctx) => FOUND(ctx.namespace) : undefined;
    case "req":
      return (ctx) => getPath(ctx.request.body, path);
    case "mS":
      return (ctx) => getPath(ctx.mockStore, path);
    case "pathParam":
      return path.length === 0 ? (ctx) => FOUND(ctx.pathParams) : (ctx) => follow(own(ctx.pathParams, name), rest);
    case "reqHeader": {
      if (path.length === 0) return (ctx) => FOUND(ctx.request.headers);
      const lower = name.toLowerCase();
      return (ctx) => follow(readHeader(ctx.request.headers, lower), rest);
    }
    case "queryParams":
      if (path.length === 0) return (ctx) => FOUND(ctx.request.query);
      return (ctx) => {
        const list = own(ctx.request.query, name) as string[] | undefined;
        if (list === undefined) return MISSING;
        if (rest.length > 0) return getPath(list, rest);
        return FOUND(Array.isArray(list) && list.length === 1 ? list[0] : list);
      };
    case "gS":
      return path.length === 0 ? undefined : (ctx) => follow(ctx.stores.getGlobal(ctx.namespace, name), rest);
    case "cS":
      return path.length === 0 ? undefined : (ctx) => (ctx.chainId === undefined ? MISSING : follow(ctx.stores.getChain(ctx.namespace, ctx.chainId, name), rest));
    default:
      return undefined;
  }
}

function fakePlaceholder(name: string, braced: boolean): Placeholder | undefined {
  const generator = findFakeGenerator(name);
  if (!generator) return undefined;
  return { braced, resolve: (ctx) => FOUND(drawFake(generator, ctx.random, ctx.clock)) };
}

const ROOT = /[A-Za-z_][A-Za-z0-9_]*/y;
const FAKE_NAME = /\.([A-Za-z0-9_]+)/y;
const SEGMENT = /\.([\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*)/uy;
// Quoted keys are bounded so a stray quote cannot make scanning quadratic.
const BRACKET = /\[(?:(-?\d+)|'([^'\n]{0,200})'|"([^"\n]{0,200})")\]/y;

function match(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

/** A bare placeholder starting at `start` (which holds "$."), or undefined when the text there is not one. */
function scanBare(text: string, start: number): { placeholder: Placeholder; end: number } | undefined {
  const rootMatch = match(ROOT, text, start + 2);
  if (!rootMatch) return undefined;
  const root = rootMatch[0];
  let at = start + 2 + root.length;
  if (root === "fake") {
    const fake = match(FAKE_NAME, text, at);
    const placeholder = fake ? fakePlaceholder(fake[1], false) : undefined;
    return placeholder && { placeholder, end: at + fake![0].length };
  }
  const path: PathSegment[] = [];
  if (root !== "namespace") {
    for (;;) {
      const segment = match(SEGMENT, text, at) ?? match(BRACKET, text, at);
      if (!segment) break;
      if (segment[0][0] === ".") path.push(segment[1]);
      else path.push(segment[1] !== undefined ? Number(segment[1]) : (segment[2] ?? segment[3]));
      at += segment[0].length;
    }
  }
  const resolve = resolverFor(root, path);
  return resolve && { placeholder: { resolve, braced: false }, end: at };
}

/** The inside of {{ }}: one placeholder whose path is everything after the root. */
function parseBraced(inner: string): Placeholder | undefined {
  const m = /^\$\.([A-Za-z_][A-Za-z0-9_]*)([\s\S]*)$/.exec(inner.trim());
  if (!m) return undefined;
  const [, root, rest] = m;
  if (root === "fake") return rest.startsWith(".") ? fakePlaceholder(rest.slice(1).trim(), true) : undefined;
  if (rest !== "" && !rest.startsWith(".") && !rest.startsWith("[")) return undefined;
  const resolve = resolverFor(root, rest === "" ? [] : parsePath(rest));
  return resolve && { resolve, braced: true };
}

const TRIGGER = /\{\{|\$\./g;

/** Splits text into literal runs and placeholders; a text without placeholders gives one string (or none). */
function parseText(text: string): Part[] {
  const parts: Part[] = [];
  let literalStart = 0;
  const push = (end: number, placeholder: Placeholder, next: number) => {
    if (end > literalStart) parts.push(text.slice(literalStart, end));
    parts.push(placeholder);
    literalStart = next;
    TRIGGER.lastIndex = next;
  };
  TRIGGER.lastIndex = 0;
  for (let m = TRIGGER.exec(text); m; m = TRIGGER.exec(text)) {
    const at = m.index;
    if (m[0] === "{{") {
      const close = text.indexOf("}}", at + 2);
      const placeholder = close < 0 ? undefined : parseBraced(text.slice(at + 2, close));
      if (placeholder) push(at, placeholder, close + 2);
      else TRIGGER.lastIndex = at + 1;
    } else {
      const bare = scanBare(text, at);
      if (bare) push(at, bare.placeholder, bare.end);
      else TRIGGER.lastIndex = at + 1;
    }
  }
  if (literalStart < text.length) parts.push(text.slice(literalStart));
  return parts;
}

// --------------------------------------------------------------------- compile

/** Assigns even the key "__proto__" as data, never as the object's prototype. */
function setKey(target: Record<string, unknown>, key: string, value: unknown) {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function primitiveSize(value: unknown): number {
  if (typeof value === "string") return value.length + 2;
  if (value === null || value === undefined) return 4;
  return String(value).length;
}

const staticNode = (value: unknown, size: number): StaticNode => ({ kind: "static", value, size });

function compileText(text: string): StaticNode | TextNode {
  const parts = parseText(text);
  if (parts.every((p) => typeof p === "string")) return staticNode(text, primitiveSize(text));
  const literalSize = parts.reduce<number>((n, p) => n + (typeof p === "string" ? p.length : 0), 2);
  return { kind: "text", parts, literalSize };
}

function compileNode(value: unknown, depth: number): Node {
  if (depth > TEMPLATE_LIMITS.maxDepth) throw new TemplateError("template_too_deep", `Template nesting exceeds ${TEMPLATE_LIMITS.maxDepth} levels`);
  if (typeof value === "string") {
    const node = compileText(value);
    if (node.kind === "text" && node.parts.length === 1) {
      const only = node.parts[0] as Placeholder;
      if (!only.braced) return { kind: "value", placeholder: only };
    }
    return node;
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => compileNode(item, depth + 1));
    if (!items.every((n) => n.kind === "static")) return { kind: "array", items };
    const statics = items as StaticNode[];
    return staticNode(Object.freeze(statics.map((n) => n.value)), statics.reduce((n, s) => n + s.size + 1, 1));
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([key, child]) => {
      const keyNode = compileText(key);
      return { key: keyNode.kind === "static" ? key : keyNode, value: compileNode(child, depth + 1) };
    });
    if (!entries.every((e) => typeof e.key === "string" && e.value.kind === "static")) return { kind: "object", entries };
    const frozen: Record<string, unknown> = {};
    let size = 1;
    for (const e of entries) {
      const child = e.value as StaticNode;
      setKey(frozen, e.key as string, child.value);
      size += (e.key as string).length + 4 + child.size;
    }
    return staticNode(Object.freeze(frozen), size);
  }
  return staticNode(value, primitiveSize(value));
}

/** Walks a JSON value once; render it with renderTemplate. */
export function compileTemplate(value: unknown): CompiledTemplate {
  const node = compileNode(value, 0);
  return { hasPlaceholders: node.kind !== "static", node };
}

/** For headers, URLs and paths: every placeholder, even a whole-string one, renders as text. */
export function compileString(text: string): CompiledString {
  const node = compileText(text);
  return { hasPlaceholders: node.kind !== "static", source: text, node };
}

/** False for a template without placeholders: the caller can use the source value as is. */
export function hasPlaceholders(compiled: CompiledTemplate | CompiledString): boolean {
  return compiled.hasPlaceholders;
}

// ---------------------------------------------------------------------- render

interface RenderState {
  ctx: TemplateContext;
  limit: number;
  used: number;
  /** Sizes of objects already measured in this render (one request body echoed many times); made on first need, a WeakMap per render costs. */
  sizes?: WeakMap<object, number>;
}

function charge(state: RenderState, size: number) {
  state.used += size;
  if (state.used > state.limit) throw new TemplateError("template_too_large", `Rendered template exceeds ${state.limit} characters`);
}

/** Approximate JSON length of a value, measured without recursion and abandoned once over `budget`. */
function measure(value: unknown, budget: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= budget) {
    const v = stack.pop();
    if (v !== null && typeof v === "object") {
      size += 2;
      if (Array.isArray(v)) {
        size += v.length;
        for (const item of v) stack.push(item);
      } else {
        for (const [key, item] of Object.entries(v)) {
          size += key.length + 4;
          stack.push(item);
        }
      }
    } else {
      size += primitiveSize(v);
    }
  }
  return size;
}

function chargeValue(state: RenderState, value: unknown) {
  if (value === null || typeof value !== "object") return charge(state, primitiveSize(value));
  state.sizes ??= new WeakMap();
  let size = state.sizes.get(value);
  if (size === undefined) {
    size = measure(value, state.limit - state.used);
    state.sizes.set(value, size);
  }
  charge(state, size);
}

/** Text form of a primitive; missing and null insert nothing. */
function textOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : String(value);
}

function renderParts(node: TextNode, state: RenderState): string {
  charge(state, node.literalSize);
  let out = "";
  for (const part of node.parts) {
    if (typeof part === "string") {
      out += part;
      continue;
    }
    const { value } = part.resolve(state.ctx);
    // Measure an object before serialising it, so an oversized one is refused
    // without building its JSON text.
    if (value !== null && typeof value === "object") {
      chargeValue(state, value);
      out += JSON.stringify(value);
    } else {
      const text = textOf(value);
      charge(state, text.length);
      out += text;
    }
  }
  return out;
}

function renderNode(node: Node, state: RenderState): unknown {
  switch (node.kind) {
    case "static":
      charge(state, node.size);
      return node.value;
    case "value": {
      const { found, value } = node.placeholder.resolve(state.ctx);
      const result = found && value !== undefined ? value : null;
      chargeValue(state, result);
      return result;
    }
    case "text":
      return renderParts(node, state);
    case "array":
      charge(state, node.items.length + 1);
      return node.items.map((item) => renderNode(item, state));
    case "object": {
      const out: Record<string, unknown> = {};
      charge(state, 1);
      for (const entry of node.entries) {
        const key = typeof entry.key === "string" ? entry.key : renderParts(entry.key, state);
        charge(state, key.length + 4);
        setKey(out, key, renderNode(entry.value, state));
      }
      return out;
    }
  }
}

const newState = (ctx: TemplateContext, opts?: RenderOptions): RenderState => ({
  ctx,
  limit: opts?.maxOutputSize ?? TEMPLATE_LIMITS.maxOutputSize,
  used: 0,
});

/** Renders a compiled JSON template; fake values are drawn afresh on every call. */
export function renderTemplate(compiled: CompiledTemplate, ctx: TemplateContext, opts?: RenderOptions): unknown {
  return renderNode(compiled.node, newState(ctx, opts));
}

export function renderString(compiled: CompiledString, ctx: TemplateContext, opts?: RenderOptions): string {
  if (compiled.node.kind === "static") return compiled.source;
  return renderParts(compiled.node, newState(ctx, opts));
}

// ------------------------------------------------------ JSON text with slots

/**
 * A JSON template compiled to its serialised form: the static JSON text
 * between placeholders pre-serialised, each placeholder a slot that renders
 * to its JSON text. A request then concatenates pieces instead of building
 * the value and serialising it; the output is byte for byte JSON.stringify of
 * what renderTemplate gives, and the size limit counts the same.
 */
export interface JsonTextTemplate {
  /** One more than slots: pieces[0] slot[0] pieces[1] … slot[n-1] pieces[n]. */
  readonly pieces: readonly string[];
  readonly slots: readonly Slot[];
  /** What renderTemplate charges for the static parts, charged once. */
  readonly staticCharge: number;
}

/** value: a whole-string placeholder; text: an embedded one; node: a subtree only the value path can render (templated keys may collide or reorder). */
type Slot = { kind: "value"; placeholder: Placeholder } | { kind: "text"; node: TextNode } | { kind: "node"; node: Node };

class JsonTextBuilder {
  pieces: string[] = [""];
  slots: Slot[] = [];
  staticCharge = 0;

  text(s: string) {
    this.pieces[this.pieces.length - 1] += s;
  }

  slot(slot: Slot) {
    this.slots.push(slot);
    this.pieces.push("");
  }

  emit(node: Node) {
    switch (node.kind) {
      case "static":
        this.staticCharge += node.size;
        // undefined only reaches here inside an array (objects skip it), where JSON has null.
        this.text(JSON.stringify(node.value) ?? "null");
        return;
      case "value":
        return this.slot({ kind: "value", placeholder: node.placeholder });
      case "text":
        return this.slot({ kind: "text", node });
      case "array":
        this.staticCharge += node.items.length + 1;
        this.text("[");
        node.items.forEach((item, i) => {
          if (i > 0) this.text(",");
          this.emit(item);
        });
        this.text("]");
        return;
      case "object": {
        if (node.entries.some((e) => typeof e.key !== "string")) return this.slot({ kind: "node", node });
        this.staticCharge += 1;
        this.text("{");
        let first = true;
        for (const entry of node.entries) {
          const key = entry.key as string;
          this.staticCharge += key.length + 4;
          // JSON.stringify leaves out a property whose value is undefined.
          if (entry.value.kind === "static" && entry.value.value === undefined) {
            this.staticCharge += entry.value.size;
            continue;
          }
          this.text(`${first ? "" : ","}${JSON.stringify(key)}:`);
          first = false;
          this.emit(entry.value);
        }
        this.text("}");
        return;
      }
    }
  }
}

/**
 * The slot form of a template whose root is an object or array (its value is
 * JSON whatever the placeholders yield); undefined for other roots, whose
 * value may be text or of any type.
 */
export function compileJsonText(compiled: CompiledTemplate): JsonTextTemplate | undefined {
  const { node } = compiled;
  if (node.kind !== "object" && node.kind !== "array") return undefined;
  if (node.kind === "object" && node.entries.some((e) => typeof e.key !== "string")) return undefined;
  const builder = new JsonTextBuilder();
  builder.emit(node);
  return { pieces: builder.pieces, slots: builder.slots, staticCharge: builder.staticCharge };
}

function renderSlot(slot: Slot, state: RenderState): string {
  switch (slot.kind) {
    case "value": {
      const { found, value } = slot.placeholder.resolve(state.ctx);
      const result = found && value !== undefined ? value : null;
      chargeValue(state, result);
      return JSON.stringify(result) ?? "null";
    }
    case "text":
      return JSON.stringify(renderParts(slot.node, state));
    case "node":
      return JSON.stringify(renderNode(slot.node, state)) ?? "null";
  }
}

/** JSON.stringify(renderTemplate(…)) without building the value; fake values are drawn afresh on every call. */
export function renderJsonText(template: JsonTextTemplate, ctx: TemplateContext, opts?: RenderOptions): string {
  const state = newState(ctx, opts);
  charge(state, template.staticCharge);
  const { pieces, slots } = template;
  let out = pieces[0];
  for (let i = 0; i < slots.length; i++) out += renderSlot(slots[i], state) + pieces[i + 1];
  return out;
}

// -------------------------------------------------------------- template files

type CompiledFile = { kind: "json"; template: CompiledTemplate } | { kind: "text"; template: CompiledString };

// Template files arrive as text on every request; keep the parsed form of
// recent ones so a hot file is parsed once. Bounded in count and file size.
const FILE_CACHE_ENTRIES = 200;
const FILE_CACHE_MAX_TEXT = 1024 * 1024;
const fileCache = new Map<string, CompiledFile>();
const textCache = new Map<string, CompiledString>();

function remember<T>(cache: Map<string, T>, text: string, build: () => T): T {
  const hit = cache.get(text);
  if (hit) return hit;
  const value = build();
  if (text.length <= FILE_CACHE_MAX_TEXT) {
    if (cache.size >= FILE_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(text, value);
  }
  return value;
}

function compileFile(text: string): CompiledFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: "text", template: compileString(text) };
  }
  return { kind: "json", template: compileTemplate(parsed) };
}

/** Template text rendered as text (embedded rules everywhere). */
export function renderTemplateText(text: string | CompiledString, ctx: TemplateContext, opts?: RenderOptions): string {
  const compiled = typeof text === "string" ? remember(textCache, text, () => compileString(text)) : text;
  return renderString(compiled, ctx, opts);
}

/**
 * A template file as a response body. A file that is JSON is rendered as a JSON
 * template (whole-string placeholders keep their type, inserted text is escaped
 * by serialisation). Other text is rendered as text; if the result then reads
 * as a JSON object or array (`{"n": $.req.n}`), the parsed value is returned,
 * otherwise the string.
 */
export function renderTemplateFile(text: string, ctx: TemplateContext, opts?: RenderOptions): unknown {
  const file = remember(fileCache, text, () => compileFile(text));
  if (file.kind === "json") return renderTemplate(file.template, ctx, opts);
  const rendered = renderString(file.template, ctx, opts);
  const first = rendered.trimStart()[0];
  if (first === "{" || first === "[") {
    try {
      return JSON.parse(rendered);
    } catch {
      return rendered;
    }
  }
  return rendered;
}
