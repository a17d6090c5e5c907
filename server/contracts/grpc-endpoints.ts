// The gRPC .proto endpoints: upload a namespace's .proto files (one or
// several, imports resolved among them and the well-known types), list,
// read and delete them. The protocol runner serves the services they define.
import { z } from "zod";
import { IdParams, NamespaceName, OkResponse, Timestamp } from "./common";
import { endpoint } from "./endpoint";
import { GrpcMethodType } from "./mock";
import { ImportQuery, ImportResult } from "./tester-import";

/** Text of one .proto file; the whole upload is bounded by the body limit too. */
export const PROTO_MAX_CHARS = 1024 * 1024;
export const PROTO_MAX_FILES = 100;

export const ProtoFileName = z
  .string()
  .min(1, "must not be empty")
  .max(500, "at most 500 characters")
  .regex(/^[A-Za-z0-9_.\-/]+\.proto$/, "an import path ending in .proto (letters, digits, _ . - /)")
  .refine((n) => !n.startsWith("/") && !n.split("/").includes(".."), "a relative import path without '..'")
  .refine((n) => !n.startsWith("google/protobuf/"), "google/protobuf/* are the bundled well-known types");

export const ProtoFileInput = z.object({ name: ProtoFileName, content: z.string().max(PROTO_MAX_CHARS, "at most 1 MiB") }).strict();

export const ImportGrpcInput = z
  .object({
    files: z.array(ProtoFileInput).min(1, "at least one file").max(PROTO_MAX_FILES, `at most ${PROTO_MAX_FILES} files`).optional().describe("several files at once; imports resolve among them, the namespace's stored files and google/protobuf/*"),
    name: ProtoFileName.optional().describe("one file: its import path (with `content`, instead of `files`)"),
    content: z.string().max(PROTO_MAX_CHARS, "at most 1 MiB").optional().describe("one file: its text (with `name`)"),
    namespace: NamespaceName.optional().describe("names the namespace, like ?namespace=; must agree with it when both are given"),
  })
  .strict()
  .superRefine((b, ctx) => {
    const single = b.name !== undefined || b.content !== undefined;
    if (b.files && single) ctx.addIssue({ code: "custom", path: ["files"], message: "give either `files` or `name` + `content`, not both" });
    else if (!b.files && (b.name === undefined || b.content === undefined)) {
      ctx.addIssue({ code: "custom", path: [b.name === undefined ? "name" : "content"], message: "required: `files`, or `name` with `content`" });
    }
  });
export type ImportGrpcInput = z.infer<typeof ImportGrpcInput>;

export const GrpcMethodView = z.object({
  name: z.string(),
  requestType: z.string(),
  responseType: z.string(),
  requestStream: z.boolean(),
  responseStream: z.boolean(),
});
export const GrpcServiceView = z.object({ name: z.string().describe("fully qualified, e.g. acme.Greeter"), file: z.string(), methods: z.array(GrpcMethodView) });
export type GrpcServiceView = z.infer<typeof GrpcServiceView>;

export const GrpcProtoSummary = z.object({
  id: z.string().uuid(),
  namespace: z.string(),
  name: z.string(),
  services: z.array(GrpcServiceView),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type GrpcProtoSummary = z.infer<typeof GrpcProtoSummary>;
export const GrpcProtoView = GrpcProtoSummary.extend({ content: z.string() });
export type GrpcProtoView = z.infer<typeof GrpcProtoView>;

export const GrpcProtoList = z.object({ namespace: z.string(), protos: z.array(GrpcProtoSummary), count: z.number().int() });
export type GrpcProtoList = z.infer<typeof GrpcProtoList>;

/** The import's answer: the namespace's .proto files (as before) and the API tester collection made of the uploaded files' services. */
export const GrpcImportResult = GrpcProtoList.extend(ImportResult.shape);
export type GrpcImportResult = z.infer<typeof GrpcImportResult>;

/** One method a mock can answer, with a response payload to start from (the mock editor's pickers). */
export const GrpcMethodEntry = z.object({
  service: z.string().describe("fully qualified, e.g. acme.Greeter"),
  method: z.string(),
  kind: GrpcMethodType.describe("the streaming kind, spelled as a mock's grpc.methodType"),
  requestType: z.string(),
  responseType: z.string(),
  file: z.string(),
  responseSkeleton: z.unknown().describe("a response.payload that fits the output type: every field with a placeholder; a list of one message when the response streams"),
});
export type GrpcMethodEntry = z.infer<typeof GrpcMethodEntry>;
export const GrpcMethodCatalog = z.object({ namespace: z.string(), methods: z.array(GrpcMethodEntry) });
export type GrpcMethodCatalog = z.infer<typeof GrpcMethodCatalog>;

const tag = "gRPC";
export const grpcEndpoints = {
  importProtos: endpoint({
    method: "POST",
    path: "/api/v1/api-tester/import/grpc",
    tag,
    summary:
      "Upload .proto files to the namespace (a file of the same name is replaced; the gRPC mock listener serves them) and import their services as an API tester collection (a folder per service, a request per method with an example message); 400 with file, line and column when one does not parse. preview=true: nothing is stored",
    auth: "user",
    namespaced: true,
    permission: "write",
    query: ImportQuery,
    body: ImportGrpcInput,
    response: GrpcImportResult,
  }),
  listProtos: endpoint({ method: "GET", path: "/api/v1/grpc/protos", tag, summary: "The namespace's .proto files and the services they define", auth: "user", namespaced: true, permission: "read", response: GrpcProtoList }),
  getProto: endpoint({ method: "GET", path: "/api/v1/grpc/protos/{id}", tag, summary: "One .proto file with its text", auth: "user", namespaced: true, permission: "read", params: IdParams, response: GrpcProtoView }),
  deleteProto: endpoint({
    method: "DELETE",
    path: "/api/v1/grpc/protos/{id}",
    tag,
    summary: "Delete a .proto file (409 when another file of the namespace imports it)",
    auth: "user",
    namespaced: true,
    permission: "delete",
    params: IdParams,
    response: OkResponse,
    statuses: { 409: "another stored file imports this one" },
  }),
} as const;
