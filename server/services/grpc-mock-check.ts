// Save-time check of a gRPC mock against its namespace's uploaded .proto
// files: once a namespace has any, a mock's grpc.service must be one they
// define, grpc.method one of its methods, and grpc.methodType (when given)
// that method's streaming kind. A namespace without protos accepts any name,
// so mocks can be written before their .proto is uploaded.
import type { GrpcServiceView } from "@/server/contracts/grpc-endpoints";
import type { MockDefinition } from "@/server/contracts/mock";
import type { Prisma } from "@/server/db/client";
import { errors } from "@/server/errors";
import { methodKind } from "@/server/grpc/proto-parse";

type GrpcBlock = NonNullable<MockDefinition["grpc"]>;
type Client = Pick<Prisma.TransactionClient, "grpcProto">;

interface Problem {
  field: "grpc.service" | "grpc.method" | "grpc.methodType";
  message: string;
}

/** The service a mock names: fully qualified (a leading dot allowed), or its simple name when only one service has it. */
export function findService(services: GrpcServiceView[], name: string): GrpcServiceView | undefined {
  const full = name.replace(/^\./, "");
  const exact = services.find((s) => s.name === full);
  if (exact) return exact;
  const simple = services.filter((s) => s.name.split(".").pop() === full);
  return simple.length === 1 ? simple[0] : undefined;
}

export function grpcMethodProblem(services: GrpcServiceView[], grpc: GrpcBlock): Problem | null {
  if (services.length === 0) return null;
  const svc = findService(services, grpc.service);
  if (!svc) {
    const known = services.map((s) => s.name).join(", ");
    return { field: "grpc.service", message: `no uploaded .proto defines service '${grpc.service}' (known: ${known})` };
  }
  const method = svc.methods.find((m) => m.name === grpc.method);
  if (!method) return { field: "grpc.method", message: `service '${svc.name}' has no method '${grpc.method}' (it has: ${svc.methods.map((m) => m.name).join(", ")})` };
  const kind = methodKind(method);
  if (grpc.methodType !== undefined && grpc.methodType !== kind) {
    return { field: "grpc.methodType", message: `'${svc.name}/${method.name}' is ${kind}, not ${grpc.methodType}` };
  }
  return null;
}

/** Throws a 400 naming the first gRPC mock (with `prefix` in front of its field, e.g. "3.") that its namespace's protos do not define. */
export async function assertKnownGrpcMethods(client: Client, namespaceId: string, items: { def: Pick<MockDefinition, "grpc">; prefix?: string }[]): Promise<void> {
  const grpcItems = items.filter((i) => i.def.grpc);
  if (grpcItems.length === 0) return;
  const rows = await client.grpcProto.findMany({ where: { namespaceId }, select: { services: true } });
  const services = rows.flatMap((r) => r.services as GrpcServiceView[]);
  for (const { def, prefix = "" } of grpcItems) {
    const problem = grpcMethodProblem(services, def.grpc!);
    if (problem) {
      const field = `${prefix}${problem.field}`;
      throw errors.validation(`Invalid field '${field}': ${problem.message}`, [{ location: "body", field, message: problem.message }]);
    }
  }
}
