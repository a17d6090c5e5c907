import { grpcEndpoints } from "@/server/contracts/grpc-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { deleteProto, getProto } from "@/server/services/grpc-protos";

export const GET = defineRoute(grpcEndpoints.getProto, ({ namespace, params }) => getProto(namespace, params.id));
export const DELETE = defineRoute(grpcEndpoints.deleteProto, ({ namespace, params }) => deleteProto(namespace, params.id));
