// POST /api/v1/api-tester/import/grpc: the uploaded .proto files are stored
// for the namespace (the gRPC mock listener serves them; grpc-protos.ts, as
// before) and their services become an API tester collection through the
// one save service. The files are checked with the namespace's stored ones
// first, so imports among them resolve; a preview stores nothing.
import type { Actor } from "@/server/auth/actor";
import type { GrpcImportResult, ImportGrpcInput } from "@/server/contracts/grpc-endpoints";
import type { ImportQuery } from "@/server/contracts/tester-import";
import { db } from "@/server/db/client";
import { GeneratorInputError } from "@/server/generators/input-error";
import { protoToCollection } from "@/server/tester/import/proto";
import { checkProtoFiles, importProtos, listProtos } from "../grpc-protos";
import type { NamespaceScope } from "../namespace-access";
import { importCollectionDocument } from "./import-collection";
import { unreadable, warningsOf } from "./import-formats";

export async function importGrpc(actor: Actor, scope: NamespaceScope, input: ImportGrpcInput, query: ImportQuery = {}): Promise<GrpcImportResult> {
  const uploaded = input.files ?? [{ name: input.name!, content: input.content! }];
  const names = new Set(uploaded.map((f) => f.name));
  const field = input.files ? "files" : "content";
  // Stores (or, in a preview, only checks) the files together with the namespace's: a 400 names the file, line and column.
  let list;
  let servicesOfUpload: Map<string, { name: string }[]>;
  if (query.preview) {
    const all = await checkProtoFiles(db(), scope, uploaded, () => field);
    servicesOfUpload = new Map([...all].filter(([file]) => names.has(file)));
    list = await listProtos(scope);
  } else {
    list = await importProtos(scope, input);
    servicesOfUpload = new Map(list.protos.filter((p) => names.has(p.name)).map((p) => [p.name, p.services]));
  }
  const only = new Set([...servicesOfUpload.values()].flat().map((s) => s.name));
  if (!only.size) return { ...list, ...noCollection(query.preview === true) };
  const stored = await db().grpcProto.findMany({ where: { namespaceId: scope.id }, select: { name: true, content: true } });
  const files = [...stored.filter((s) => !names.has(s.name)), ...uploaded];
  let converted;
  try {
    converted = protoToCollection({ files }, { only });
  } catch (err) {
    if (err instanceof GeneratorInputError) throw unreadable(err, field);
    throw err;
  }
  const result = await importCollectionDocument(actor, scope, converted.document, { preview: query.preview, source: "grpc", name: query.name, warnings: warningsOf(converted.warnings) });
  return { ...list, ...result };
}

/** Files of messages only (imported by others) give no requests: the files are stored, no collection is made. */
function noCollection(preview: boolean): Omit<GrpcImportResult, keyof Awaited<ReturnType<typeof listProtos>>> {
  return {
    collectionId: null,
    name: "",
    source: "grpc",
    imported: { folders: 0, requests: 0, variables: 0 },
    requestsCount: 0,
    summary: { importedFolders: 0, importedRequests: 0, failedCount: 0, warningCount: 1 },
    failures: [],
    warnings: [{ path: "", message: "the uploaded files define no service: no collection was created" }],
    preview,
  };
}
