// gRPC helpers: grpc/discover (services and methods through server
// reflection, with a JSON skeleton of each input) and proxy/grpc (a dynamic
// call typed by the namespace's uploaded .proto files or by reflection).
// Messages are JSON with field names as in the .proto, 64-bit integers and
// enums as strings, bytes as base64 — the form the gRPC mocks use. A non-OK
// status is a result (ok: false, code, details, trailers), not an API error:
// the caller asked us to try, and the answer says what the server said.
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";
import type { GrpcDiscoverInput, ProxyGrpcInput } from "@/server/contracts/tester-helpers";
import { db } from "@/server/db/client";
import { errors } from "@/server/errors";
import { messageSkeleton } from "@/server/grpc/message-skeleton";
import { methodKind, parseProtos, ProtoError } from "@/server/grpc/proto-parse";
import { ReflectionClient, ReflectionError } from "@/server/grpc/reflection-client";
import { refuse } from "@/server/lib/fetch-document";
import type { NamespaceScope } from "../../namespace-access";
import { external } from "./outbound";
import { metadataJson, metadataOf, openGrpcClient } from "./grpc-target";

const MAX_RESPONSES = 10_000;
const REFLECTION_SERVICES = new Set(["grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"]);
const JSON_FORM: protobuf.IConversionOptions = { longs: String, enums: String, bytes: String, defaults: true, oneofs: false };

function reflectionFailure(err: unknown, target: string): Error {
  const e = err as grpc.ServiceError;
  if (e?.code === grpc.status.UNIMPLEMENTED) return external(`${target} does not offer server reflection (v1 or v1alpha): upload its .proto files and pass protoIds`);
  if (err instanceof ReflectionError) return external(`${target}'s reflection answered an error: ${err.message}`);
  return external(`server reflection at ${target} failed: ${e?.details || e?.message || String(err)}`);
}

function methodInfo(m: protobuf.Method) {
  m.resolve();
  const requestStream = Boolean(m.requestStream);
  const responseStream = Boolean(m.responseStream);
  return {
    name: m.name,
    kind: methodKind({ requestStream, responseStream }),
    requestType: m.resolvedRequestType!.fullName.replace(/^\./, ""),
    responseType: m.resolvedResponseType!.fullName.replace(/^\./, ""),
    requestStream,
    responseStream,
    inputSkeleton: messageSkeleton(m.resolvedRequestType!),
  };
}

export async function discoverGrpc(input: GrpcDiscoverInput) {
  const client = await openGrpcClient(input);
  const reflection = new ReflectionClient(client, { metadata: metadataOf(input.metadata), deadline: new Date(Date.now() + input.timeout) });
  try {
    const names = (await reflection.listServices()).filter((n) => !REFLECTION_SERVICES.has(n)).sort();
    const services = [];
    for (const name of names) {
      const root = await reflection.rootFor([name]);
      const svc = root.lookupService(name);
      services.push({ name, methods: svc.methodsArray.map(methodInfo) });
    }
    return { reflection: reflection.reflectionVersion ?? "v1", services };
  } catch (err) {
    throw reflectionFailure(err, input.target);
  } finally {
    client.close();
  }
}

/** The namespace's uploaded files parsed together (imports resolve among them); every id named must be one of them. */
async function protoRoot(scope: NamespaceScope, ids: string[]): Promise<protobuf.Root> {
  const rows = await db().grpcProto.findMany({ where: { namespaceId: scope.id }, select: { id: true, name: true, content: true } });
  ids.forEach((id, i) => {
    if (!rows.some((r) => r.id === id)) throw errors.validation(`.proto file '${id}' is not uploaded in namespace '${scope.name}'`, [{ location: "body", field: `protoIds.${i}`, message: "not found in this namespace" }]);
  });
  try {
    return parseProtos(rows);
  } catch (err) {
    if (err instanceof ProtoError) throw refuse("protoIds", err.message);
    throw err;
  }
}

function findMethod(root: protobuf.Root, service: string, method: string): protobuf.Method {
  let svc: protobuf.Service;
  try {
    svc = root.lookupService(service.replace(/^\./, ""));
  } catch {
    throw refuse("service", `no service "${service}" in the .proto files`);
  }
  const m = svc.methods[method];
  if (!m) throw refuse("method", `${service} has no method "${method}" (it has ${svc.methodsArray.map((x) => x.name).join(", ")})`);
  m.resolve();
  return m;
}

/** A JSON message as protobuf, refusing names its type does not have (fromObject would drop them silently). */
function encoder(type: protobuf.Type, field: string) {
  const check = (value: unknown, t: protobuf.Type, path: string) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw refuse(path, `must be a JSON object (a ${t.name} message)`);
    for (const [k, v] of Object.entries(value)) {
      const f = t.fields[k] ?? t.fieldsArray.find((x) => x.name === k || (x as { jsonName?: string }).jsonName === k);
      if (!f) throw refuse(`${path}.${k}`, `${t.name} has no field "${k}"`);
      f.resolve();
      if (f.resolvedType instanceof protobuf.Type && !f.map && v !== null) {
        if (f.repeated && Array.isArray(v)) v.forEach((item, i) => check(item, f.resolvedType as protobuf.Type, `${path}.${k}.${i}`));
        else if (!f.repeated) check(v, f.resolvedType, `${path}.${k}`);
      }
    }
  };
  return (value: unknown, path = field) => {
    check(value ?? {}, type, path);
    try {
      return Buffer.from(type.encode(type.fromObject((value ?? {}) as Record<string, unknown>)).finish());
    } catch (err) {
      throw refuse(path, `does not fit ${type.name}: ${(err as Error).message}`);
    }
  };
}

interface Outcome {
  responses: unknown[];
  status: grpc.StatusObject;
  headers?: grpc.Metadata;
}

/** Runs the call in whichever of the four shapes the method has, collecting every message, the headers and the final status. */
function invoke(client: grpc.Client, m: protobuf.Method, requests: Buffer[], metadata: grpc.Metadata, deadline: Date): Promise<Outcome> {
  const path = `/${m.parent!.fullName.replace(/^\./, "")}/${m.name}`;
  const resType = m.resolvedResponseType!;
  const serialize = (b: Buffer) => b;
  const deserialize = (b: Buffer) => resType.toObject(resType.decode(b), JSON_FORM);
  const responses: unknown[] = [];
  let headers: grpc.Metadata | undefined;
  return new Promise((resolve) => {
    const onStatus = (status: grpc.StatusObject) => resolve({ responses, status, headers });
    const collect = (value: unknown) => {
      if (value !== undefined && responses.length < MAX_RESPONSES) responses.push(value);
    };
    const unaryCallback = (_err: grpc.ServiceError | null, value?: unknown) => collect(value);
    type Call = { on(event: string, fn: (...a: any[]) => void): unknown };
    let call: Call;
    if (!m.requestStream && !m.responseStream) call = client.makeUnaryRequest(path, serialize, deserialize, requests[0], metadata, { deadline }, unaryCallback);
    else if (!m.requestStream) {
      const stream = client.makeServerStreamRequest(path, serialize, deserialize, requests[0], metadata, { deadline });
      stream.on("data", (v: unknown) => {
        collect(v);
        if (responses.length >= MAX_RESPONSES) stream.cancel();
      });
      call = stream;
    } else if (!m.responseStream) {
      const stream = client.makeClientStreamRequest(path, serialize, deserialize, metadata, { deadline }, unaryCallback);
      for (const r of requests) stream.write(r);
      stream.end();
      call = stream;
    } else {
      const stream = client.makeBidiStreamRequest(path, serialize, deserialize, metadata, { deadline });
      stream.on("data", (v: unknown) => {
        collect(v);
        if (responses.length >= MAX_RESPONSES) stream.cancel();
      });
      for (const r of requests) stream.write(r);
      stream.end();
      call = stream;
    }
    call.on("metadata", (md: grpc.Metadata) => (headers = md));
    // Streams also emit 'error' for a non-OK status; the status event carries it.
    call.on("error", () => {});
    call.on("status", onStatus);
  });
}

export async function proxyGrpc(scope: NamespaceScope, input: ProxyGrpcInput) {
  const client = await openGrpcClient(input);
  const metadata = metadataOf(input.metadata);
  const deadline = new Date(Date.now() + input.timeout);
  try {
    const source = input.protoIds ? "protos" : "reflection";
    let root: protobuf.Root;
    if (input.protoIds) root = await protoRoot(scope, input.protoIds);
    else {
      const reflection = new ReflectionClient(client, { metadata, deadline });
      try {
        root = await reflection.rootFor([input.service.replace(/^\./, "")]);
      } catch (err) {
        if (err instanceof ReflectionError && err.code === grpc.status.NOT_FOUND) throw refuse("service", `${input.target} does not offer a service "${input.service}"`);
        throw reflectionFailure(err, input.target);
      }
    }
    const m = findMethod(root, input.service, input.method);
    const encode = encoder(m.resolvedRequestType!, "message");
    let requests: Buffer[];
    if (m.requestStream) {
      const list = input.messages ?? (input.message !== undefined ? [input.message] : []);
      requests = list.map((msg, i) => encode(msg, `messages.${i}`));
    } else {
      if (input.messages && input.message === undefined && input.messages.length !== 1) throw refuse("message", `${input.method} takes one message (it is not client-streaming)`);
      requests = [encode(input.message ?? input.messages?.[0] ?? {}, "message")];
    }
    const started = performance.now();
    const outcome = await invoke(client, m, requests, metadata, deadline);
    return {
      ok: outcome.status.code === grpc.status.OK,
      code: outcome.status.code,
      codeName: grpc.status[outcome.status.code] ?? String(outcome.status.code),
      details: outcome.status.details,
      kind: methodKind({ requestStream: Boolean(m.requestStream), responseStream: Boolean(m.responseStream) }),
      responses: outcome.responses,
      headers: metadataJson(outcome.headers),
      trailers: metadataJson(outcome.status.metadata),
      source,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    } as const;
  } finally {
    client.close();
  }
}
