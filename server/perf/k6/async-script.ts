// k6 scripts are synchronous: `http.get()` returns the response, `sleep()`
// returns after the pause. To run several VUs in one isolate (each VU its own
// context, HTTP an asynchronous host call) a script has to wait without
// blocking the isolate's thread, so this module rewrites it: each call that
// waits (`http.*`, `sleep`, a `group` whose function waits, a function of the
// script that waits) becomes `await <call>`, and the functions holding such
// calls become `async`. Each such call is awaited where it stands, so a VU
// still does one thing at a time, in the same order, with the same values.
//
// The rewrite is only done when it can be shown to be that faithful: every
// function that waits must be reachable only through calls this module sees
// and rewrites. Anything else (a waiting function passed to forEach or some
// other unknown function, stored in an object, a method, a getter, a
// constructor, a class field, a generator, a script that already uses
// async/await, a name declared twice, eval...) is refused with the reason,
// and the caller runs the script unchanged on the isolate-per-VU engine.
//
// Only insertions are made, never on a new line, so line numbers in errors
// stay the script's own.
//
// The engine runs a rewritten script with several VUs per isolate
// (shared-isolate.ts); a refused one runs as written, one isolate per VU.
import { type Node, parse } from "acorn";

export type AsyncTransform = { ok: true; source: string } | { ok: false; reason: string; line?: number; column?: number };

/** k6/http functions that wait for the response. */
const HTTP_WAITS = new Set(["get", "post", "put", "patch", "del", "head", "options", "request", "batch"]);

type AnyNode = Node & Record<string, unknown>;
type FunctionNode = AnyNode & { type: "FunctionDeclaration" | "FunctionExpression" | "ArrowFunctionExpression"; id?: AnyNode | null; params: AnyNode[]; async: boolean; generator: boolean };

class Refused extends Error {
  constructor(
    readonly reason: string,
    readonly at?: Node,
  ) {
    super(reason);
  }
}

const isFunction = (n: AnyNode): n is FunctionNode => n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression";

/** Every node with its parent, in source order. */
function index(program: AnyNode): { nodes: AnyNode[]; parent: Map<AnyNode, AnyNode> } {
  const nodes: AnyNode[] = [];
  const parent = new Map<AnyNode, AnyNode>();
  const seen = new Set<AnyNode>();
  const visit = (n: AnyNode, p: AnyNode | undefined) => {
    // acorn shares one Identifier between `key` and `value` of a shorthand property and between `local` and `exported` of `export { f }`.
    if (seen.has(n)) return;
    seen.add(n);
    nodes.push(n);
    if (p) parent.set(n, p);
    for (const key of Object.keys(n)) {
      if (key === "loc") continue;
      const v = n[key];
      if (Array.isArray(v)) {
        for (const c of v) if (c && typeof c === "object" && typeof (c as AnyNode).type === "string") visit(c as AnyNode, n);
      } else if (v && typeof v === "object" && typeof (v as AnyNode).type === "string") visit(v as AnyNode, n);
    }
  };
  visit(program, undefined);
  return { nodes, parent };
}

/** The identifiers a binding pattern declares. */
function patternNames(p: AnyNode | null | undefined, out: AnyNode[] = []): AnyNode[] {
  if (!p) return out;
  switch (p.type) {
    case "Identifier":
      out.push(p);
      break;
    case "ObjectPattern":
      for (const prop of p.properties as AnyNode[]) patternNames(prop.type === "RestElement" ? (prop.argument as AnyNode) : (prop.value as AnyNode), out);
      break;
    case "ArrayPattern":
      for (const e of p.elements as (AnyNode | null)[]) patternNames(e, out);
      break;
    case "AssignmentPattern":
      patternNames(p.left as AnyNode, out);
      break;
    case "RestElement":
      patternNames(p.argument as AnyNode, out);
      break;
  }
  return out;
}

/** Where an Identifier with a name is not a reference to a binding: a property name, a label, an imported or exported name. */
function isNameOnly(id: AnyNode, parent: AnyNode): boolean {
  switch (parent.type) {
    case "MemberExpression":
      return parent.property === id && !parent.computed;
    case "Property":
      return parent.key === id && !parent.computed && !parent.shorthand;
    case "MethodDefinition":
    case "PropertyDefinition":
      return parent.key === id && !parent.computed;
    case "LabeledStatement":
    case "BreakStatement":
    case "ContinueStatement":
      return true;
    case "ImportSpecifier":
      return parent.imported === id && parent.local !== id;
    case "MetaProperty":
      return true;
  }
  return false;
}

interface Edit {
  pos: number;
  text: string;
  /** Among edits at one position: lower first. */
  order: number;
}

export function toAsyncScript(source: string): AsyncTransform {
  let program: AnyNode;
  try {
    program = parse(source, { ecmaVersion: "latest", sourceType: "module", locations: true, allowHashBang: true }) as unknown as AnyNode;
  } catch (e) {
    return { ok: false, reason: `does not parse: ${(e as Error).message}` };
  }
  try {
    return { ok: true, source: rewrite(source, program) };
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    const loc = e.at?.loc;
    return { ok: false, reason: e.reason, line: loc?.start.line, column: loc ? loc.start.column + 1 : undefined };
  }
}

function rewrite(source: string, program: AnyNode): string {
  const { nodes, parent } = index(program);

  // ---------------------------------------------------------------- what the script may not do
  for (const n of nodes) {
    if (isFunction(n) && (n.async || n.generator)) throw new Refused("the script has async functions or generators of its own", n);
    if (n.type === "AwaitExpression" || n.type === "YieldExpression") throw new Refused("the script uses await or yield itself", n);
    if (n.type === "ImportExpression") throw new Refused("the script uses import()", n);
    if (n.type === "Identifier" && (n.name === "eval" || n.name === "Function")) throw new Refused(`the script uses ${n.name as string}`, n);
    // `await` unwraps anything with a then(); a function's result that has one would not come back as it was.
    if ((n.type === "Identifier" && n.name === "then") || (n.type === "Literal" && n.value === "then")) throw new Refused("the script names a property `then`", n);
  }

  // ---------------------------------------------------------------- the k6 functions that wait
  const httpNamespaces = new Set<string>();
  const k6Namespaces = new Set<string>();
  const waitingImports = new Set<string>();
  const groupImports = new Set<string>();
  for (const n of program.body as AnyNode[]) {
    if (n.type !== "ImportDeclaration") continue;
    const from = (n.source as AnyNode).value;
    for (const s of n.specifiers as AnyNode[]) {
      const local = (s.local as AnyNode).name as string;
      const whole = s.type === "ImportDefaultSpecifier" || s.type === "ImportNamespaceSpecifier";
      const imported = whole ? "" : (((s.imported as AnyNode).name ?? (s.imported as AnyNode).value) as string);
      if (from === "k6/http") {
        if (whole) httpNamespaces.add(local);
        else if (HTTP_WAITS.has(imported)) waitingImports.add(local);
      } else if (from === "k6") {
        if (whole) k6Namespaces.add(local);
        else if (imported === "sleep") waitingImports.add(local);
        else if (imported === "group") groupImports.add(local);
      }
    }
  }

  // ---------------------------------------------------------------- declarations, and the functions names stand for
  const declarations = new Map<string, AnyNode[]>();
  const declaringIds = new Set<AnyNode>();
  const declare = (id: AnyNode) => {
    declaringIds.add(id);
    const name = id.name as string;
    declarations.set(name, [...(declarations.get(name) ?? []), id]);
  };
  /** name → the function it is bound to, when it is bound to one. */
  const functionOf = new Map<string, FunctionNode>();
  for (const n of nodes) {
    switch (n.type) {
      case "VariableDeclarator": {
        for (const id of patternNames(n.id as AnyNode)) declare(id);
        const init = n.init as AnyNode | null;
        if ((n.id as AnyNode).type === "Identifier" && init && isFunction(init)) functionOf.set((n.id as AnyNode).name as string, init);
        break;
      }
      case "FunctionDeclaration":
      case "FunctionExpression":
      case "ArrowFunctionExpression":
        if (n.id) {
          declare(n.id as AnyNode);
          functionOf.set((n.id as AnyNode).name as string, n as FunctionNode);
        }
        for (const p of n.params as AnyNode[]) for (const id of patternNames(p)) declare(id);
        break;
      case "ClassDeclaration":
      case "ClassExpression":
        if (n.id) declare(n.id as AnyNode);
        break;
      case "CatchClause":
        for (const id of patternNames(n.param as AnyNode | null)) declare(id);
        break;
      case "ImportSpecifier":
      case "ImportDefaultSpecifier":
      case "ImportNamespaceSpecifier":
        declare(n.local as AnyNode);
        break;
    }
  }
  /** Whether `name` means one thing throughout the script (so every use of it is that thing). */
  const unique = (name: string) => {
    const ids = declarations.get(name) ?? [];
    if (ids.length <= 1) return true;
    // `const f = function f() {}` declares f twice, both the same function.
    const fn = functionOf.get(name);
    return !!fn && ids.every((id) => parent.get(id) === fn || (parent.get(id)?.type === "VariableDeclarator" && parent.get(id)!.init === fn));
  };

  // ---------------------------------------------------------------- which calls wait, which functions must be async
  const waits = new Set<FunctionNode>();
  const waitingFunction = (n: AnyNode | undefined): boolean => {
    if (!n) return false;
    if (isFunction(n)) return waits.has(n);
    return n.type === "Identifier" && functionOf.has(n.name as string) && waits.has(functionOf.get(n.name as string)!);
  };
  const isGroup = (callee: AnyNode) =>
    (callee.type === "Identifier" && groupImports.has(callee.name as string)) ||
    (callee.type === "MemberExpression" && !callee.computed && (callee.object as AnyNode).type === "Identifier" && k6Namespaces.has((callee.object as AnyNode).name as string) && (callee.property as AnyNode).name === "group");
  /** Whether a call waits, given the functions known to wait so far. */
  const callWaits = (call: AnyNode): boolean => {
    const callee = call.callee as AnyNode;
    if (callee.type === "Identifier") {
      const name = callee.name as string;
      if (waitingImports.has(name)) return true;
      if (groupImports.has(name)) return waitingFunction((call.arguments as AnyNode[])[1]);
      return functionOf.has(name) && waits.has(functionOf.get(name)!);
    }
    if (callee.type === "MemberExpression" && !callee.computed && (callee.object as AnyNode).type === "Identifier") {
      const object = (callee.object as AnyNode).name as string;
      const member = (callee.property as AnyNode).name as string;
      if (httpNamespaces.has(object)) return HTTP_WAITS.has(member);
      if (k6Namespaces.has(object)) return member === "sleep" || (member === "group" && waitingFunction((call.arguments as AnyNode[])[1]));
    }
    return false;
  };
  /** The function whose body holds `n` (undefined: the init code); refused where no `await` can go. */
  const ownerOf = (n: AnyNode): FunctionNode | undefined => {
    let child = n;
    for (let p = parent.get(n); p; child = p, p = parent.get(p)) {
      if (isFunction(p)) {
        if (p.params.includes(child)) throw new Refused("a call that waits in a parameter's default value", n);
        return p;
      }
      if (p.type === "PropertyDefinition" || p.type === "StaticBlock") throw new Refused("a call that waits in a class field or static block", n);
    }
    return undefined;
  };
  const calls = nodes.filter((n) => n.type === "CallExpression");
  for (let changed = true; changed; ) {
    changed = false;
    for (const call of calls) {
      if (!callWaits(call)) continue;
      const owner = ownerOf(call);
      if (!owner) throw new Refused("a call that waits in the init code (k6 refuses it there too)", call);
      if (!waits.has(owner)) {
        waits.add(owner);
        changed = true;
      }
    }
  }
  const waitingCalls = calls.filter(callWaits);

  // ---------------------------------------------------------------- every function that waits is reached only by calls we rewrite
  for (const fn of waits) {
    const p = parent.get(fn)!;
    if (fn.type === "FunctionDeclaration") continue;
    if (p.type === "VariableDeclarator" && p.init === fn && (p.id as AnyNode).type === "Identifier") continue;
    if (p.type === "ExportDefaultDeclaration") continue;
    if (p.type === "CallExpression" && isGroup(p.callee as AnyNode) && (p.arguments as AnyNode[])[1] === fn) continue;
    throw new Refused(placeOf(fn, p), fn);
  }
  const named = new Set<string>([...httpNamespaces, ...k6Namespaces, ...waitingImports, ...groupImports]);
  for (const [name, fn] of functionOf) if (waits.has(fn)) named.add(name);
  for (const name of named) if (!unique(name)) throw new Refused(`"${name}" is declared more than once`, (declarations.get(name) ?? [])[1]);
  for (const n of nodes) {
    if (n.type !== "Identifier" || !named.has(n.name as string) || declaringIds.has(n)) continue;
    const p = parent.get(n)!;
    if (isNameOnly(n, p)) continue;
    checkUse(n, p, parent.get(p));
  }

  function checkUse(id: AnyNode, p: AnyNode, grand: AnyNode | undefined) {
    const name = id.name as string;
    const called = p.type === "CallExpression" && p.callee === id;
    if (p.type === "AssignmentExpression" || p.type === "UpdateExpression" || (p.type === "ForInStatement" && p.left === id) || (p.type === "ForOfStatement" && p.left === id)) throw new Refused(`"${name}" is assigned to`, id);
    if (waitingImports.has(name) || groupImports.has(name)) {
      if (!called) throw new Refused(`"${name}" is used other than by calling it`, id);
      return;
    }
    if (httpNamespaces.has(name) || k6Namespaces.has(name)) {
      if (p.type !== "MemberExpression" || p.object !== id || p.computed) throw new Refused(`"${name}" is used other than as ${name}.<function>`, id);
      const member = (p.property as AnyNode).name as string;
      const waitsWhenCalled = httpNamespaces.has(name) ? HTTP_WAITS.has(member) : member === "sleep" || member === "group";
      if (waitsWhenCalled && !(grand?.type === "CallExpression" && grand.callee === p)) throw new Refused(`${name}.${member} is used other than by calling it`, id);
      return;
    }
    // A function of the script that waits.
    if (called) return;
    if (p.type === "CallExpression" && isGroup(p.callee as AnyNode) && (p.arguments as AnyNode[])[1] === id) return;
    if (p.type === "ExportSpecifier" || p.type === "ExportDefaultDeclaration") return;
    throw new Refused(`function "${name}" makes requests and is used as a value (the rewrite can only await direct calls)`, id);
  }

  for (const call of waitingCalls) {
    if (call.optional || ((call.callee as AnyNode).type === "MemberExpression" && (call.callee as AnyNode).optional)) throw new Refused("an optional call (?.) that waits", call);
  }

  // ---------------------------------------------------------------- the rewrite: insertions only
  const edits: Edit[] = [];
  for (const fn of waits) edits.push({ pos: fn.start, text: "async ", order: 2 });
  for (const call of waitingCalls) {
    const p = parent.get(call)!;
    const needsParens =
      (p.type === "MemberExpression" && p.object === call) ||
      ((p.type === "CallExpression" || p.type === "NewExpression") && p.callee === call) ||
      (p.type === "TaggedTemplateExpression" && p.tag === call) ||
      (p.type === "BinaryExpression" && p.operator === "**" && p.left === call) ||
      p.type === "ChainExpression";
    if (!needsParens) {
      edits.push({ pos: call.start, text: "await ", order: 1 });
      continue;
    }
    // `(` at the start of a statement would continue an unterminated previous line: `x = 1\n(await f()).y`.
    if (startsStatementAfterAnother(call, parent)) edits.push({ pos: call.start, text: ";", order: 0 });
    edits.push({ pos: call.start, text: "(await ", order: 1 });
    edits.push({ pos: call.end, text: ")", order: 3 });
  }
  edits.sort((a, b) => a.pos - b.pos || a.order - b.order);
  let out = "";
  let at = 0;
  for (const e of edits) {
    out += source.slice(at, e.pos) + e.text;
    at = e.pos;
  }
  return out + source.slice(at);
}

/** Whether `n` is the first token of a statement that follows another in a list (where an empty statement is harmless). */
function startsStatementAfterAnother(n: AnyNode, parent: Map<AnyNode, AnyNode>): boolean {
  let stmt: AnyNode | undefined = n;
  while (stmt && stmt.type !== "ExpressionStatement") stmt = parent.get(stmt);
  if (!stmt || stmt.start !== n.start) return false;
  const list = parent.get(stmt);
  const body = (list?.type === "SwitchCase" ? list.consequent : list?.body) as AnyNode[] | undefined;
  return Array.isArray(body) && body.indexOf(stmt) > 0;
}

/** Why a function that waits cannot be made async safely, from where it stands. */
function placeOf(fn: FunctionNode, p: AnyNode): string {
  if (p.type === "CallExpression" || p.type === "NewExpression") {
    const callee = p.callee as AnyNode;
    const name = callee.type === "Identifier" ? (callee.name as string) : callee.type === "MemberExpression" && !callee.computed ? `.${(callee.property as AnyNode).name as string}` : "a function";
    return `a callback passed to ${name}() makes requests (the rewrite cannot tell when ${name}() calls it)`;
  }
  if (p.type === "Property") return p.kind === "get" || p.kind === "set" ? "a getter or setter makes requests" : p.method ? "an object's method makes requests" : "a function stored in an object makes requests";
  if (p.type === "MethodDefinition") return p.kind === "constructor" ? "a constructor makes requests" : "a class method makes requests";
  return `a function that makes requests is used as a value (${p.type})`;
}
