import { grpcEndpoints } from "@/server/contracts/grpc-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { listProtos } from "@/server/services/grpc-protos";

export const GET = defineRoute(grpcEndpoints.listProtos, ({ namespace }) => listProtos(namespace));
