// Upload .proto files (stored for the gRPC mock listener) and import their services as an API tester collection.
import { grpcEndpoints } from "@/server/contracts/grpc-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { importGrpc } from "@/server/services/tester/import-grpc";

export const POST = defineRoute(grpcEndpoints.importProtos, ({ actor, namespace, body, query }) => importGrpc(actor, namespace, body, query));
