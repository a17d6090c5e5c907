// .proto files → an API tester collection, read by the generators' one
// .proto reader (server/generators/proto.ts): a folder per service, a
// request per method. The request model has no gRPC kind (HTTP, GraphQL and
// SOAP), so a method is kept as what identifies a gRPC call on the wire: a
// POST to `{{grpcUrl}}/<package.Service>/<Method>` with `Content-Type:
// application/grpc+json` and an example request message in JSON (the form the
// gRPC proxy helper and the gRPC mocks take). docs/decisions.md, "API tester:
// imports from specs, SoapUI and JMeter".
import { methodKind } from "@/server/grpc/proto-parse";
import { readProtoDocument } from "@/server/generators/proto";
import { messageSample } from "@/server/generators/proto-sample";
import { collectionDocument, folderItem, jsonText, requestItem, variable, type ConvertedCollection, type ImportWarning } from "./common";

/** Where the gRPC mock listener answers by default (protocol runner, port 5773). */
export const DEFAULT_GRPC_URL = "http://localhost:5773";

/** `only`: the services to import (those of the uploaded files, when `document` also holds the namespace's other files for their imports). */
export function protoToCollection(document: unknown, opts: { name?: string; only?: ReadonlySet<string> } = {}): ConvertedCollection & { files: { name: string; content: string }[] } {
  const read = readProtoDocument(document);
  const { files, root } = read;
  const services = opts.only ? read.services.filter((s) => opts.only!.has(s.name)) : read.services;
  const warnings: ImportWarning[] = [];
  const items = services.map((svc) =>
    folderItem(
      svc.name,
      svc.methods.map((m) => {
        const kind = methodKind(m);
        if (kind === "client-stream" || kind === "bidirectional") warnings.push({ message: `${svc.name}/${m.name} streams its requests: the saved request holds one example message` });
        const message = messageSample(root.lookupType(m.requestType)) ?? {};
        return requestItem(m.name, {
          kind: "http",
          method: "POST",
          url: `{{grpcUrl}}/${svc.name}/${m.name}`,
          headers: [{ key: "Content-Type", value: "application/grpc+json" }],
          body: { mode: "raw", language: "json", raw: jsonText(message) },
        });
      }),
    ),
  );
  const title = opts.name ?? (services.length === 1 ? services[0].name : files[0].name.replace(/\.proto$/, ""));
  const description = `gRPC services from ${files.map((f) => f.name).join(", ")}. Each request is a gRPC method: its path is /<package.Service>/<Method> and its body the request message in JSON.`;
  return { document: collectionDocument({ name: title, description, variables: [variable("grpcUrl", DEFAULT_GRPC_URL)], items }), warnings, files };
}
