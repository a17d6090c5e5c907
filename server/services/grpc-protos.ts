// A namespace's uploaded .proto files: import (validated together with the
// files already stored, so the namespace's set always parses), list, read,
// delete, and the services they define for mock validation and serving.
import type {
  GrpcMethodCatalog,
  GrpcMethodEntry,
  GrpcProtoList,
  GrpcProtoSummary,
  GrpcProtoView,
  GrpcServiceView,
  ImportGrpcInput,
} from "@/server/contracts/grpc-endpoints";
import { db, type Prisma } from "@/server/db/client";
import { notifyMocksChanged } from "@/server/db/notify";
import { errors } from "@/server/errors";
import { responseSkeleton } from "@/server/grpc/message-skeleton";
import { methodKind, parseProtos, ProtoError, servicesByFile, type ProtoFile } from "@/server/grpc/proto-parse";
import type { NamespaceScope } from "./namespace-access";

interface Row {
  id: string;
  name: string;
  content: string;
  services: unknown;
  createdAt: Date;
  updatedAt: Date;
}

function summary(ns: NamespaceScope, row: Row): GrpcProtoSummary {
  return { id: row.id, namespace: ns.name, name: row.name, services: row.services as GrpcServiceView[], createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

function checkNamespace(ns: NamespaceScope, named: string | undefined) {
  if (named === undefined || named === ns.name) return;
  const message = `names namespace '${named}' but the request is for '${ns.name}' (path, query or header)`;
  throw errors.validation(`Invalid body field 'namespace': ${message}`, [{ location: "body", field: "namespace", message }]);
}

export async function listProtos(ns: NamespaceScope): Promise<GrpcProtoList> {
  const rows = await db().grpcProto.findMany({ where: { namespaceId: ns.id }, orderBy: { name: "asc" } });
  return { namespace: ns.name, protos: rows.map((r) => summary(ns, r)), count: rows.length };
}

type ProtoClient = Pick<Prisma.TransactionClient, "grpcProto">;

/**
 * The services of each uploaded file, checked together with the namespace's
 * other stored files (an uploaded file replaces the stored one of its name),
 * so the namespace's set always parses. A 400 names the body field `fieldOf`
 * gives for the offending file, with its file, line and column.
 */
export async function checkProtoFiles(client: ProtoClient, ns: NamespaceScope, uploaded: ProtoFile[], fieldOf: (file: string) => string): Promise<Map<string, GrpcServiceView[]>> {
  const names = new Set(uploaded.map((f) => f.name));
  const stored = await client.grpcProto.findMany({ where: { namespaceId: ns.id }, select: { name: true, content: true } });
  try {
    return servicesByFile([...stored.filter((s) => !names.has(s.name)), ...uploaded]);
  } catch (err) {
    if (!(err instanceof ProtoError)) throw err;
    const where = err.line === undefined ? {} : { line: err.line, column: err.column };
    throw errors.validation(`The .proto files do not parse: ${err.message}`, [{ location: "body", field: fieldOf(err.file), message: err.message, file: err.file, ...where }]);
  }
}

/** Checks (checkProtoFiles) and stores the files, replacing those of the same name; the caller notifies after its transaction. */
export async function storeProtoFiles(client: ProtoClient, ns: NamespaceScope, uploaded: ProtoFile[], fieldOf: (file: string) => string): Promise<void> {
  const services = await checkProtoFiles(client, ns, uploaded, fieldOf);
  for (const f of uploaded) {
    await client.grpcProto.upsert({
      where: { namespaceId_name: { namespaceId: ns.id, name: f.name } },
      create: { namespaceId: ns.id, name: f.name, content: f.content, services: services.get(f.name) ?? [] },
      update: { content: f.content, services: services.get(f.name) ?? [] },
    });
  }
}

export async function importProtos(ns: NamespaceScope, input: ImportGrpcInput): Promise<GrpcProtoList> {
  checkNamespace(ns, input.namespace);
  const single = input.files === undefined;
  const uploaded: ProtoFile[] = input.files ?? [{ name: input.name!, content: input.content! }];
  const fieldOf = (i: number, key: "name" | "content") => (single ? key : `files.${i}.${key}`);
  const seen = new Map<string, number>();
  uploaded.forEach((f, i) => {
    if (seen.has(f.name)) throw errors.validation(`File '${f.name}' is uploaded twice`, [{ location: "body", field: fieldOf(i, "name"), message: `duplicate of files.${seen.get(f.name)}` }]);
    seen.set(f.name, i);
  });
  const contentField = (file: string) => {
    const i = seen.get(file);
    return i === undefined ? "files" : fieldOf(i, "content");
  };
  await db().$transaction((tx) => storeProtoFiles(tx, ns, uploaded, contentField));
  // The protocol runner rebuilds its gRPC services on the mocks' notification.
  await notifyMocksChanged(ns.id);
  return listProtos(ns);
}

async function findProto(ns: NamespaceScope, id: string): Promise<Row> {
  const row = await db().grpcProto.findFirst({ where: { id, namespaceId: ns.id } });
  if (!row) throw errors.notFound(`.proto file '${id}'`);
  return row;
}

export async function getProto(ns: NamespaceScope, id: string): Promise<GrpcProtoView> {
  const row = await findProto(ns, id);
  return { ...summary(ns, row), content: row.content };
}

const IMPORT = /^\s*import\s+(?:weak\s+|public\s+)?"([^"]+)"\s*;/gm;

export async function deleteProto(ns: NamespaceScope, id: string): Promise<{ ok: true }> {
  const row = await findProto(ns, id);
  const others = await db().grpcProto.findMany({ where: { namespaceId: ns.id, id: { not: id } }, select: { name: true, content: true } });
  const importers = others.filter((o) => [...o.content.matchAll(IMPORT)].some((m) => m[1] === row.name)).map((o) => o.name);
  if (importers.length > 0) {
    throw errors.conflict(`'${row.name}' is imported by ${importers.map((n) => `'${n}'`).join(", ")}; delete or replace those first`, { importers });
  }
  await db().grpcProto.delete({ where: { id } });
  await notifyMocksChanged(ns.id);
  return { ok: true };
}

/** The services defined by the namespace's .proto files (empty when none are uploaded). */
export async function namespaceGrpcServices(namespaceId: string): Promise<GrpcServiceView[]> {
  const rows = await db().grpcProto.findMany({ where: { namespaceId }, select: { services: true } });
  return rows.flatMap((r) => r.services as GrpcServiceView[]);
}

/**
 * Every method the namespace's .proto files define, with a response payload
 * skeleton of its output type: what the mock editor's service and method
 * pickers offer. Parsed on each call (the stored set always parses; uploads are few and small).
 */
export async function listGrpcMethods(ns: NamespaceScope): Promise<GrpcMethodCatalog> {
  const rows = await db().grpcProto.findMany({ where: { namespaceId: ns.id }, orderBy: { name: "asc" }, select: { name: true, content: true, services: true } });
  if (rows.length === 0) return { namespace: ns.name, methods: [] };
  const root = parseProtos(rows);
  const methods = rows.flatMap((row) =>
    (row.services as GrpcServiceView[]).flatMap((svc) =>
      svc.methods.map((m): GrpcMethodEntry => {
        const type = root.lookupType(m.responseType);
        return { service: svc.name, method: m.name, kind: methodKind(m), requestType: m.requestType, responseType: m.responseType, file: row.name, responseSkeleton: responseSkeleton(type, m.responseStream) };
      }),
    ),
  );
  methods.sort((a, b) => (a.service === b.service ? (a.method < b.method ? -1 : 1) : a.service < b.service ? -1 : 1));
  return { namespace: ns.name, methods };
}
