// The generators' service: reads the document (inline or fetched under the
// outbound policy), runs the format's pure mapping (server/generators/), and
// compares each mock with the namespace's mock of the same id: new, update or
// unchanged. Generating saves the new and changed ones (or those of
// `mockIds`) in one batch transaction; a second run on the same document
// updates the same mocks.
import type { Actor } from "@/server/auth/actor";
import { type GeneratorKind, type GeneratorRequest, type GeneratorResponse } from "@/server/contracts/generators";
import { MockInput, protocolOf, type MockInput as MockInputType } from "@/server/contracts/mock";
import { db } from "@/server/db/client";
import { errors } from "@/server/errors";
import { MAX_DOCUMENT_BYTES, parseDocumentText } from "@/server/generators/document-text";
import { GeneratorInputError } from "@/server/generators/input-error";
import { graphqlToMocks } from "@/server/generators/graphql";
import { harToMocks } from "@/server/generators/har";
import { mcpToMocks } from "@/server/generators/mcp";
import { asyncapiToMocks } from "@/server/generators/asyncapi";
import { openapiToMocks } from "@/server/generators/openapi";
import { soapToMocks } from "@/server/generators/soap";
import { protoToMocks } from "@/server/generators/proto";
import { socketToMocks } from "@/server/generators/socket";
import type { GeneratorOptions, GeneratorResult, GeneratorWarning } from "@/server/generators/types";
import { fetchDocument } from "@/server/lib/fetch-document";
import { checkProtoFiles, storeProtoFiles } from "./grpc-protos";
import { readMcpServer } from "./generators-mcp-source";
import { batchSaveMocks } from "./mock-batch";
import { storedBody } from "./mock-rows";
import { canonical, type MockBody } from "./mocks";
import type { NamespaceScope } from "./namespace-access";

interface Generator {
  map(document: unknown, options: GeneratorOptions): Promise<GeneratorResult>;
  /** structured: the text is JSON or YAML; sdl: JSON (an introspection result) or the text itself; xml: the text itself. */
  text: "structured" | "sdl" | "xml";
  /** Reads `url` itself instead of fetching a document there (MCP: the URL is a live server). */
  live?: (url: string) => Promise<unknown>;
}

const GENERATORS: Record<GeneratorKind, Generator> = {
  openapi: { map: openapiToMocks, text: "structured" },
  graphql: { map: graphqlToMocks, text: "sdl" },
  soap: { map: soapToMocks, text: "xml" },
  grpc: { map: protoToMocks, text: "sdl" },
  har: { map: harToMocks, text: "structured" },
  socket: { map: socketToMocks, text: "structured" },
  mcp: { map: mcpToMocks, text: "structured", live: (url) => readMcpServer(url, { field: "url", maxBytes: MAX_DOCUMENT_BYTES }) },
  asyncapi: { map: asyncapiToMocks, text: "structured" },
};

function readText(text: string, how: Generator["text"]): unknown {
  if (how === "xml") return text;
  if (how === "sdl" && !/^\s*[{[]/.test(text)) return text;
  return parseDocumentText(text);
}

async function documentOf(kind: GeneratorKind, input: GeneratorRequest): Promise<{ value: unknown; field: "document" | "url" }> {
  const how = GENERATORS[kind].text;
  if (input.url !== undefined) {
    const live = GENERATORS[kind].live;
    if (live) return { value: await live(input.url), field: "url" };
    const fetched = await fetchDocument(input.url, { field: "url", maxBytes: MAX_DOCUMENT_BYTES });
    return { value: readText(fetched.text, how), field: "url" };
  }
  return { value: typeof input.document === "string" ? readText(input.document, how) : input.document, field: "document" };
}

/** A document the format cannot read: 400 with where (line and column, or a JSON pointer). */
function unreadable(err: GeneratorInputError, field: string) {
  return errors.validation(err.message, [{ location: "body", field, message: err.message, ...err.location }]);
}

const comparable = (def: MockBody) => canonical({ ...def, id: undefined, namespace: undefined });

type Protos = NonNullable<GeneratorResult["protos"]>;

/** The .proto files a generator gives, against the namespace's: a 400 when together they do not parse, a warning for each stored file they would change. */
async function checkProtos(scope: NamespaceScope, protos: Protos, field: string): Promise<GeneratorWarning[]> {
  await checkProtoFiles(db(), scope, protos, () => field);
  const stored = await db().grpcProto.findMany({ where: { namespaceId: scope.id, name: { in: protos.map((p) => p.name) } }, select: { name: true, content: true } });
  const changed = stored.filter((s) => protos.find((p) => p.name === s.name)?.content !== s.content);
  return changed.map((s) => ({ message: `replaces the namespace's stored .proto file '${s.name}'` }));
}

interface Planned {
  id: string;
  summary: string;
  def: MockBody;
  status: "new" | "update" | "unchanged";
}

async function plan(kind: GeneratorKind, scope: NamespaceScope, input: GeneratorRequest): Promise<{ planned: Planned[]; warnings: GeneratorWarning[]; protos?: Protos; field: string }> {
  let field: "document" | "url" = input.url !== undefined ? "url" : "document";
  let result: GeneratorResult;
  try {
    const doc = await documentOf(kind, input);
    field = doc.field;
    result = await GENERATORS[kind].map(doc.value, { idPrefix: input.idPrefix, pathPrefix: input.pathPrefix, serverName: input.serverName, tags: input.tags, folderId: input.folderId });
  } catch (err) {
    if (err instanceof GeneratorInputError) throw unreadable(err, field);
    throw err;
  }
  const warnings = [...result.warnings, ...(result.protos ? await checkProtos(scope, result.protos, field) : [])];
  const parsed: { id: string; summary: string; def: MockBody }[] = [];
  for (const g of result.mocks) {
    const checked = MockInput.safeParse(g.mock as MockInputType);
    if (checked.success) parsed.push({ id: g.mock.id, summary: g.summary, def: checked.data });
    else warnings.push({ mockId: g.mock.id, message: `not generated: ${checked.error.issues[0]?.message ?? "not a valid mock"}` });
  }
  const existing = new Map((await db().mock.findMany({ where: { namespaceId: scope.id, id: { in: parsed.map((p) => p.id) } }, select: { id: true, folderId: true, definition: true, deletedAt: true } })).map((r) => [r.id, r]));
  const planned = parsed.map((p): Planned => {
    const row = existing.get(p.id);
    if (!row) return { ...p, status: "new" };
    const same = !row.deletedAt && (() => {
      try {
        return comparable(storedBody(row)) === comparable(p.def);
      } catch {
        return false;
      }
    })();
    return { ...p, status: same ? "unchanged" : "update" };
  });
  return { planned, warnings, protos: result.protos, field };
}

const view = (p: Planned, status: GeneratorResponse["mocks"][number]["status"]) => ({ id: p.id, summary: p.summary, protocol: protocolOf(p.def), status, mock: { ...p.def, id: p.id } as Record<string, unknown> });

export async function previewGenerator(kind: GeneratorKind, scope: NamespaceScope, input: GeneratorRequest): Promise<GeneratorResponse> {
  const { planned, warnings } = await plan(kind, scope, input);
  return {
    created: planned.filter((p) => p.status === "new").length,
    updated: planned.filter((p) => p.status === "update").length,
    skipped: planned.filter((p) => p.status === "unchanged").length,
    warnings,
    mocks: planned.map((p) => view(p, p.status)),
  };
}

export async function runGenerator(kind: GeneratorKind, actor: Actor, scope: NamespaceScope, input: GeneratorRequest): Promise<GeneratorResponse> {
  const { planned, warnings, protos, field } = await plan(kind, scope, input);
  const chosen = input.mockIds ? new Set(input.mockIds) : undefined;
  if (chosen) {
    const known = new Set(planned.map((p) => p.id));
    const unknown = [...chosen].filter((id) => !known.has(id));
    if (unknown.length) throw errors.validation(`mockIds names mocks the document does not give: ${unknown.slice(0, 5).join(", ")}`, [{ location: "body", field: "mockIds", message: "not in the preview" }]);
  }
  const write = planned.filter((p) => p.status !== "unchanged" && (!chosen || chosen.has(p.id)));
  // The .proto files go in the mocks' transaction: the gRPC mock check reads them.
  await batchSaveMocks(actor, scope, write.map((p) => ({ ...p.def, id: p.id })), undefined, protos && ((tx) => storeProtoFiles(tx, scope, protos, () => field)));
  const outcome = (p: Planned) => (chosen && !chosen.has(p.id) ? "skipped" : p.status === "new" ? "created" : p.status === "update" ? "updated" : "unchanged");
  const mocks = planned.map((p) => view(p, outcome(p)));
  return {
    created: mocks.filter((m) => m.status === "created").length,
    updated: mocks.filter((m) => m.status === "updated").length,
    skipped: mocks.filter((m) => m.status === "skipped" || m.status === "unchanged").length,
    warnings,
    mocks,
  };
}
