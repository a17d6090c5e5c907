// A gRPC server reflection client (grpc.reflection.v1, falling back to
// v1alpha, which is the same messages at another path): the services a server
// offers, and a protobufjs Root of the files that define one, built from the
// FileDescriptorProtos the server sends (with their dependencies, fetched by
// file name when the server left them out). Used by the API tester to call a
// server without its .proto files; field names stay as written in the .proto
// (keepCase), as everywhere else in the project.
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";
import * as descriptorModule from "protobufjs/ext/descriptor";

// CommonJS module.exports of protobufjs's descriptor extension; importing it also adds Root.fromDescriptor.
const descriptor = ((descriptorModule as unknown as { default?: typeof descriptorModule }).default ?? descriptorModule) as typeof descriptorModule;

const REFLECTION_PROTO = `syntax = "proto3";
message ServerReflectionRequest {
  string host = 1;
  oneof message_request {
    string file_by_filename = 3;
    string file_containing_symbol = 4;
    string list_services = 7;
  }
}
message ServerReflectionResponse {
  string valid_host = 1;
  oneof message_response {
    FileDescriptorResponse file_descriptor_response = 4;
    ListServiceResponse list_services_response = 6;
    ErrorResponse error_response = 7;
  }
}
message FileDescriptorResponse { repeated bytes file_descriptor_proto = 1; }
message ListServiceResponse { repeated ServiceResponse service = 1; }
message ServiceResponse { string name = 1; }
message ErrorResponse { int32 error_code = 1; string error_message = 2; }
`;

const messages = protobuf.parse(REFLECTION_PROTO, { keepCase: true }).root;
const RequestType = messages.lookupType("ServerReflectionRequest");
const ResponseType = messages.lookupType("ServerReflectionResponse");

export type ReflectionVersion = "v1" | "v1alpha";
const PATHS: Record<ReflectionVersion, string> = {
  v1: "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
  v1alpha: "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
};

interface ReflectionRequest {
  file_by_filename?: string;
  file_containing_symbol?: string;
  list_services?: string;
}

interface ReflectionResponse {
  file_descriptor_response?: { file_descriptor_proto?: Uint8Array[] };
  list_services_response?: { service?: { name: string }[] };
  error_response?: { error_code?: number; error_message?: string };
}

/** The server answered the reflection request with an error (e.g. NOT_FOUND for an unknown symbol). */
export class ReflectionError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = "ReflectionError";
  }
}

type FileProto = protobuf.Message & { name?: string; dependency?: string[] };

export interface ReflectionClientOptions {
  metadata?: grpc.Metadata;
  /** When every call of the client must be over. */
  deadline?: Date;
}

export class ReflectionClient {
  private version: ReflectionVersion | undefined;

  constructor(
    private readonly client: grpc.Client,
    private readonly opts: ReflectionClientOptions = {},
  ) {}

  /** The version the server answered (after the first call). */
  get reflectionVersion(): ReflectionVersion | undefined {
    return this.version;
  }

  private askAt(version: ReflectionVersion, request: ReflectionRequest): Promise<ReflectionResponse> {
    return new Promise((resolve, reject) => {
      const call = this.client.makeBidiStreamRequest(
        PATHS[version],
        (r: ReflectionRequest) => Buffer.from(RequestType.encode(RequestType.fromObject(r)).finish()),
        (b: Buffer) => ResponseType.toObject(ResponseType.decode(b), { defaults: false, oneofs: true }) as ReflectionResponse,
        this.opts.metadata ?? new grpc.Metadata(),
        this.opts.deadline ? { deadline: this.opts.deadline } : {},
      );
      let answered = false;
      call.on("data", (r: ReflectionResponse) => {
        if (answered) return;
        answered = true;
        call.end();
        if (r.error_response) reject(new ReflectionError(r.error_response.error_message || "reflection error", r.error_response.error_code ?? 2));
        else resolve(r);
      });
      call.on("error", (err: grpc.ServiceError) => {
        if (!answered) reject(err);
      });
      call.on("status", () => {
        if (!answered) reject(new ReflectionError("the reflection stream ended without an answer", grpc.status.UNKNOWN));
      });
      call.write(request);
    });
  }

  /** Asks with the version that answered before; the first time v1, then v1alpha when v1 is not implemented. */
  private async ask(request: ReflectionRequest): Promise<ReflectionResponse> {
    if (this.version) return this.askAt(this.version, request);
    try {
      const r = await this.askAt("v1", request);
      this.version = "v1";
      return r;
    } catch (err) {
      if ((err as grpc.ServiceError).code !== grpc.status.UNIMPLEMENTED) throw err;
      const r = await this.askAt("v1alpha", request);
      this.version = "v1alpha";
      return r;
    }
  }

  async listServices(): Promise<string[]> {
    const r = await this.ask({ list_services: "*" });
    return (r.list_services_response?.service ?? []).map((s) => s.name);
  }

  private static decode(r: ReflectionResponse): FileProto[] {
    return (r.file_descriptor_response?.file_descriptor_proto ?? []).map((bytes) => descriptor.FileDescriptorProto.decode(bytes) as FileProto);
  }

  /** The files defining `symbols` (fully qualified names) and everything they import, as one resolved Root. */
  async rootFor(symbols: string[]): Promise<protobuf.Root> {
    const files = new Map<string, FileProto>();
    const add = (list: FileProto[]) => list.forEach((f) => files.set(f.name ?? `#${files.size}`, f));
    for (const symbol of symbols) add(ReflectionClient.decode(await this.ask({ file_containing_symbol: symbol })));
    // A server may send a file without its dependencies; ask for each one still missing.
    for (let pass = 0; pass < 100; pass++) {
      const missing = [...new Set([...files.values()].flatMap((f) => f.dependency ?? []))].filter((d) => !files.has(d));
      if (!missing.length) break;
      for (const name of missing) add(ReflectionClient.decode(await this.ask({ file_by_filename: name })));
    }
    const root = (protobuf.Root as unknown as { fromDescriptor(d: unknown, o: { keepCase: boolean }): protobuf.Root }).fromDescriptor({ file: [...files.values()] }, { keepCase: true });
    root.resolveAll();
    return root;
  }
}
