// .proto files → gRPC mocks: one per method of every service (unary, server-,
// client- and bidirectional streaming), answering an example of the output
// type (proto-sample.ts): one message, or for a streamed reply a list of
// messages (three for server streaming; one per incoming message for
// bidirectional). The document is one .proto text, or several files as
// `{"files": [{"name", "content"}]}` (the shape of POST
// /api/v1/api-tester/import/grpc); imports resolve among them and the
// well-known types (server/grpc/proto-parse.ts, the project's one .proto
// parser). The files come back in the result, for the service to store in
// the namespace with the mocks: the gRPC listener and the mock check need them.
import { z } from "zod";
import { PROTO_MAX_CHARS, PROTO_MAX_FILES, ProtoFileInput } from "@/server/contracts/grpc-endpoints";
import type { MockInput } from "@/server/contracts/mock";
import { methodKind, parseProtos, ProtoError, servicesOf, type ProtoFile } from "@/server/grpc/proto-parse";
import { mockId, uniqueIds } from "./ids";
import { GeneratorInputError } from "./input-error";
import { messageSample } from "./proto-sample";
import type { GeneratedMock, GeneratorOptions, GeneratorResult, GeneratorWarning } from "./types";

/** How many messages a generated server-streaming mock sends. */
export const SERVER_STREAM_MESSAGES = 3;

const FilesDocument = z.object({ files: z.array(ProtoFileInput).min(1, "at least one file").max(PROTO_MAX_FILES, `at most ${PROTO_MAX_FILES} files`) }).strict();

/** A single text is stored as `<package>.proto` (the same name on every run, so a second run replaces it). */
function nameOf(content: string): string {
  const pkg = /^\s*package\s+([A-Za-z0-9_.]+)\s*;/m.exec(content)?.[1];
  return `${pkg ?? "service"}.proto`;
}

function filesOf(document: unknown): ProtoFile[] {
  if (typeof document === "string") {
    if (document.length > PROTO_MAX_CHARS) throw new GeneratorInputError("the .proto text is larger than 1 MiB");
    if (!document.trim()) throw new GeneratorInputError("the document is empty");
    return [{ name: nameOf(document), content: document }];
  }
  const parsed = FilesDocument.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const pointer = `/${issue.path.join("/")}`;
    throw new GeneratorInputError(`not .proto files: ${pointer === "/" ? "" : `${pointer}: `}${issue.message} (give the .proto text, or {"files": [{"name": "a/b.proto", "content": "…"}]})`, { pointer });
  }
  const files = parsed.data.files;
  const first = new Map<string, number>();
  files.forEach((f, i) => {
    const at = first.get(f.name);
    if (at !== undefined) throw new GeneratorInputError(`file '${f.name}' is given twice (files ${at} and ${i})`, { pointer: `/files/${i}/name` });
    first.set(f.name, i);
  });
  return files;
}

/** Where: the file (a single text by the name it is stored under), its line and column, and for `files` the JSON pointer of its content. */
function unreadable(err: ProtoError, files: ProtoFile[], single: boolean): GeneratorInputError {
  const i = files.findIndex((f) => f.name === err.file);
  return new GeneratorInputError(`the .proto files do not parse: ${err.message}`, {
    file: err.file,
    ...(!single && i >= 0 ? { pointer: `/files/${i}/content` } : {}),
    ...(err.line !== undefined ? { line: err.line, column: err.column } : {}),
  });
}

/** The one read of .proto files (the mock generator and the API tester's import): the files, their parsed root and services. */
export function readProtoDocument(document: unknown) {
  const files = filesOf(document);
  let root;
  try {
    root = parseProtos(files);
  } catch (err) {
    if (err instanceof ProtoError) throw unreadable(err, files, typeof document === "string");
    throw err;
  }
  const services = servicesOf(root, () => "");
  if (!services.length) throw new GeneratorInputError("the .proto files define no service");
  return { files, root, services };
}

export async function protoToMocks(document: unknown, options: GeneratorOptions = {}): Promise<GeneratorResult> {
  const { files, root, services } = readProtoDocument(document);
  const warnings: GeneratorWarning[] = [];
  if (options.pathPrefix) warnings.push({ message: "pathPrefix does not apply to gRPC mocks: a call's path is /<package.Service>/<Method>" });
  const prefix = options.idPrefix ?? "grpc";
  const mocks: GeneratedMock[] = [];
  for (const svc of services) {
    for (const m of svc.methods) {
      const type = root.lookupType(m.responseType);
      const one = () => messageSample(type) ?? {};
      const kind = methodKind(m);
      const payload = kind === "server-stream" ? Array.from({ length: SERVER_STREAM_MESSAGES }, one) : kind === "bidirectional" ? [one()] : one();
      const mock: MockInput & { id: string } = {
        id: mockId(prefix, svc.name, m.name),
        grpc: { service: svc.name, method: m.name, methodType: kind },
        response: { payload },
        ...(options.serverName ? { serverName: options.serverName } : {}),
        ...(options.tags?.length ? { tags: options.tags } : {}),
        ...(options.folderId !== undefined ? { folderId: options.folderId } : {}),
      };
      const reply = kind === "server-stream" ? `a stream of ${SERVER_STREAM_MESSAGES} ${m.responseType}` : kind === "bidirectional" ? `one ${m.responseType} per message` : m.responseType;
      mocks.push({ mock, summary: `${svc.name}/${m.name} (${kind}) → ${reply}` });
    }
  }
  uniqueIds(mocks);
  return { mocks, warnings, protos: files };
}
