import { grpcEndpoints } from "@/server/contracts/grpc-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { importProtos } from "@/server/services/grpc-protos";

export const POST = defineRoute(grpcEndpoints.importProtos, ({ namespace, body }) => importProtos(namespace, body));
