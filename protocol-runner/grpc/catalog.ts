// What the gRPC listener serves, rebuilt on every change of protos or mocks:
// each namespace's methods (from its uploaded .proto files, with protobufjs
// types for decoding requests and checking responses), the union of their
// paths, which namespace a call without namespace metadata goes to, and the
// package definition server reflection describes.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as protoLoader from "@grpc/proto-loader";
import type protobuf from "protobufjs";
import { MockInput } from "@/server/contracts/mock";
import { db } from "@/server/db/client";
import { grpcRoute } from "@/server/engine/protocols/grpc";
import { parseProtos, servicesOf, type ProtoFile } from "@/server/grpc/proto-parse";
import { findService } from "@/server/services/grpc-mock-check";
import { HEALTH_FILE, HEALTH_PROTO } from "./health";

export interface GrpcMethod {
  /** "/acme.Greeter/Say" */
  path: string;
  service: string;
  name: string;
  requestType: protobuf.Type;
  responseType: protobuf.Type;
  requestStream: boolean;
  responseStream: boolean;
}

export interface NamespaceProtos {
  namespace: string;
  methods: Map<string, GrpcMethod>;
}

export interface Catalog {
  namespaces: Map<string, NamespaceProtos>;
  /** Every method path some namespace defines. */
  paths: Set<string>;
  /** Method path → the namespace a call without namespace metadata goes to (see namespaceFor). */
  defaultNamespace: Map<string, string>;
  reflection: protoLoader.PackageDefinition;
  /** Namespaces whose protos could not be loaded, with the reason. */
  errors: { namespace: string; error: string }[];
}

export const FALLBACK_NAMESPACE = "sandbox";

function namespaceMethods(namespace: string, files: ProtoFile[]): NamespaceProtos {
  const root = parseProtos(files);
  const methods = new Map<string, GrpcMethod>();
  for (const svc of servicesOf(root, () => "")) {
    const service = root.lookupService(svc.name);
    for (const m of service.methodsArray) {
      const p = grpcRoute(svc.name, m.name);
      methods.set(p, {
        path: p,
        service: svc.name,
        name: m.name,
        requestType: m.resolvedRequestType!,
        responseType: m.resolvedResponseType!,
        requestStream: Boolean(m.requestStream),
        responseStream: Boolean(m.responseStream),
      });
    }
  }
  return { namespace, methods };
}

/** proto-loader's definition of the files (the form @grpc/reflection reads), via a scratch directory. */
function packageDefinition(files: ProtoFile[]): protoLoader.PackageDefinition {
  const dir = mkdtempSync(path.join(tmpdir(), "polymock-grpc-"));
  try {
    for (const f of files) {
      mkdirSync(path.dirname(path.join(dir, f.name)), { recursive: true });
      writeFileSync(path.join(dir, f.name), f.content);
    }
    return protoLoader.loadSync(files.map((f) => f.name), { includeDirs: [dir], keepCase: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function loadCatalog(): Promise<Catalog> {
  const [protoRows, mockRows] = await Promise.all([
    db().grpcProto.findMany({ where: { namespace: { deletedAt: null } }, select: { name: true, content: true, namespace: { select: { name: true } } }, orderBy: { name: "asc" } }),
    db().mock.findMany({ where: { protocol: "grpc", deletedAt: null, namespace: { deletedAt: null } }, select: { definition: true, namespace: { select: { name: true } } } }),
  ]);
  const filesByNs = new Map<string, ProtoFile[]>();
  for (const r of protoRows) {
    const list = filesByNs.get(r.namespace.name) ?? [];
    list.push({ name: r.name, content: r.content });
    filesByNs.set(r.namespace.name, list);
  }
  const catalog: Catalog = { namespaces: new Map(), paths: new Set(), defaultNamespace: new Map(), reflection: {}, errors: [] };
  // Reflection describes one set of files: namespaces are added in name order, and one whose
  // files clash with those already taken (same file or type names, other text) is left out of it.
  let reflected: ProtoFile[] = [{ name: HEALTH_FILE, content: HEALTH_PROTO }];
  catalog.reflection = packageDefinition(reflected);
  for (const [namespace, files] of [...filesByNs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    try {
      const ns = namespaceMethods(namespace, files);
      catalog.namespaces.set(namespace, ns);
      for (const p of ns.methods.keys()) catalog.paths.add(p);
    } catch (err) {
      catalog.errors.push({ namespace, error: (err as Error).message });
      continue;
    }
    const taken = new Map(reflected.map((f) => [f.name, f.content]));
    const fresh = files.filter((f) => taken.get(f.name) !== f.content);
    if (fresh.some((f) => taken.has(f.name))) continue;
    try {
      const next = [...reflected, ...fresh];
      catalog.reflection = packageDefinition(next);
      reflected = next;
    } catch {
      // Same type names in another namespace's files: this namespace is served, not reflected.
    }
  }
  // A call without namespace metadata: the namespace whose gRPC mock for that method has a
  // `serverName`, when exactly one namespace has such mocks; otherwise the sandbox.
  const named = new Map<string, Set<string>>();
  for (const row of mockRows) {
    const parsed = MockInput.safeParse(row.definition);
    if (!parsed.success || !parsed.data.grpc || !parsed.data.serverName) continue;
    const ns = catalog.namespaces.get(row.namespace.name);
    const svc = ns && findService([...new Set([...ns.methods.values()].map((m) => m.service))].map((name) => ({ name, file: "", methods: [] })), parsed.data.grpc.service);
    const p = grpcRoute(svc?.name ?? parsed.data.grpc.service, parsed.data.grpc.method);
    const set = named.get(p) ?? new Set<string>();
    set.add(row.namespace.name);
    named.set(p, set);
  }
  for (const [p, set] of named) if (set.size === 1) catalog.defaultNamespace.set(p, [...set][0]);
  return catalog;
}

/** Namespace routing: `x-service-namespace`, then `x-namespace` metadata, then the method's serverName namespace, then the sandbox. */
export function namespaceFor(catalog: Catalog, methodPath: string, headers: Record<string, string[]>): string {
  return headers["x-service-namespace"]?.[0] || headers["x-namespace"]?.[0] || catalog.defaultNamespace.get(methodPath) || FALLBACK_NAMESPACE;
}
