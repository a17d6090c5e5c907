// The standard gRPC health service (grpc.health.v1.Health): Check answers
// SERVING for the whole server ("") and for every service some namespace
// defines, SERVICE_UNKNOWN otherwise; Watch sends that status and stays open.
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";

export const HEALTH_FILE = "grpc/health/v1/health.proto";
export const HEALTH_PROTO = `syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health {
  rpc Check(HealthCheckRequest) returns (HealthCheckResponse);
  rpc Watch(HealthCheckRequest) returns (stream HealthCheckResponse);
}
`;

const root = protobuf.parse(HEALTH_PROTO).root;
const Request = root.lookupType("grpc.health.v1.HealthCheckRequest");
const Response = root.lookupType("grpc.health.v1.HealthCheckResponse");

const SERVING = 1;
const SERVICE_UNKNOWN = 3;

const encode = (status: number) => Buffer.from(Response.encode(Response.create({ status })).finish());
const decode = (buf: Buffer) => (Request.decode(buf) as unknown as { service: string }).service;
const raw = (b: Buffer) => b;

/** Registers the health service; `serves(service)` says whether a service is served now. */
export function addHealth(server: grpc.Server, serves: (service: string) => boolean): void {
  const status = (service: string) => (service === "" || service === "grpc.health.v1.Health" || serves(service) ? SERVING : SERVICE_UNKNOWN);
  server.register<Buffer, Buffer>(
    "/grpc.health.v1.Health/Check",
    ((call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      const s = status(decode(call.request));
      if (s === SERVICE_UNKNOWN) callback({ code: grpc.status.NOT_FOUND, details: "unknown service" });
      else callback(null, encode(s));
    }) as grpc.handleUnaryCall<Buffer, Buffer>,
    raw,
    raw,
    "unary",
  );
  server.register<Buffer, Buffer>(
    "/grpc.health.v1.Health/Watch",
    ((call: grpc.ServerWritableStream<Buffer, Buffer>) => {
      call.write(encode(status(decode(call.request))));
    }) as grpc.handleServerStreamingCall<Buffer, Buffer>,
    raw,
    raw,
    "serverStream",
  );
}
